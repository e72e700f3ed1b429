import Foundation

extension OrderVerifier {
    /// The content checks of ``verify(_:at:)`` on files not packaged or signed yet — order.json's
    /// validation and the files it references, each finding at its path with its code — so that
    /// authoring refuses content before anything is signed. A valid result is then packaged,
    /// signed and verified whole, as an upload is.
    ///
    /// - Parameter files: the package's files by name (order.json, images, `xx.lproj/order.strings`).
    public func checkUnsigned(files: [String: Data]) -> VerificationReport {
        var report = VerificationReport(archiveDigest: ArchiveDigest(hex: ""))
        guard let orderBytes = files[OrderValidator.fileName] else {
            report.errors.append(ArchiveError.missingFile(OrderValidator.fileName, hint: nil).issue)
            return report
        }
        // The names' rules of a read archive, before anything is packaged with them.
        var folded = ArchiveEntryName.FoldedNames()
        for name in files.keys.sorted() {
            if let reason = ArchiveEntryName.unsafeReason(name) {
                report.errors.append(ArchiveError.unsafePath(entry: name, reason: reason).issue)
            } else if let other = folded.collision(of: name) {
                report.errors.append(ArchiveError.ambiguousName(entry: name, other: other).issue)
            }
        }
        let archive = ZipArchive(
            entries: files.sorted { $0.key < $1.key }.map {
                ZipArchive.Entry(name: $0.key, contents: $0.value, compression: .deflate)
            })
        let findings = checkContent(orderBytes, in: archive, into: &report)
        report.add(findings)
        return report
    }
}
