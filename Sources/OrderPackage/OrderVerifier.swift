import Foundation

/// Verifies a signed order package (`.order`) as strictly as Wallet does.
///
/// The stages, in order: the zip container (``ZipArchive``, with ``ArchiveLimits`` enforced while
/// inflating), the package layout, `manifest.json` (every file listed, every SHA-256 matching),
/// `order.json` (``OrderValidator``, then every referenced file), and the detached CMS signature
/// (chain to a root in the ``TrustStore``, Apple's Order Type ID policy, validity at the chosen
/// ``VerificationTime``). Every problem of every stage is reported; a stage that cannot run
/// without an earlier one's output is skipped.
///
/// A verifier is an immutable value, safe to share between tasks. Build one and keep it: it keeps
/// the certificates archives embed, parsed, and its ``TrustStore`` keeps the chains it verified,
/// so a merchant's archives after the first skip both (the verdicts are the same):
///
/// ```swift
/// let verifier = OrderVerifier()                       // Apple's roots, default limits
/// let report = verifier.verify(try Data(contentsOf: url))
/// print(report.isValid ? "valid" : report.errors.map(\.description).joined(separator: "\n"))
/// ```
public struct OrderVerifier: Sendable {
    public var trustStore: TrustStore
    public var limits: ArchiveLimits
    /// The clock for ``VerificationTime/now``; inject a fixed one for deterministic tests.
    public var clock: @Sendable () -> Date
    /// Embedded certificates already parsed, shared by copies of this verifier.
    let certificateCache = X509CertificateCache()

    public init(
        trustStore: TrustStore = .apple,
        limits: ArchiveLimits = ArchiveLimits(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.trustStore = trustStore
        self.limits = limits
        self.clock = clock
    }

    public func verify(_ archiveBytes: Data, at time: VerificationTime = .now) -> VerificationReport {
        guard archiveBytes.count <= limits.maximumArchiveSize else {
            return VerificationReport(oversizedArchiveOf: archiveBytes.count, limit: limits.maximumArchiveSize)
        }
        var report = VerificationReport(archiveDigest: ArchiveDigest(of: archiveBytes))

        // 1. The container.
        let archive: ZipArchive
        do {
            archive = try ZipArchive(reading: archiveBytes, limits: limits)
        } catch {
            report.add(error.errors)
            return report
        }
        return verify(archive, into: report, at: time)
    }

    /// ``verify(_:at:)`` of a package just signed, from its entries in memory — the layout, the
    /// manifest's digests of those entries, order.json and its files, the signature with its chain
    /// and signer policy — without reading back the archive zipped from them: the checks an
    /// upload passes, the container's limits on entries included.
    public func verify(package: SignedOrderPackage, at time: VerificationTime = .now) -> VerificationReport {
        guard package.archive.count <= limits.maximumArchiveSize else {
            return VerificationReport(oversizedArchiveOf: package.archive.count, limit: limits.maximumArchiveSize)
        }
        var report = VerificationReport(archiveDigest: ArchiveDigest(of: package.archive))
        let overLimits = limits.problems(in: package.entries.entries)
        guard overLimits.isEmpty else {
            report.add(overLimits)
            return report
        }
        return verify(package.entries, into: report, at: time)
    }

    /// The stages after the container (2–5), on its entries.
    private func verify(_ archive: ZipArchive, into report: VerificationReport, at time: VerificationTime) -> VerificationReport {
        var report = report
        func add(_ findings: [some VerificationIssueConvertible]) { report.add(findings) }

        // 2. The layout.
        let layoutProblems = Self.layoutProblems(archive)
        add(layoutProblems)
        if layoutProblems.contains(where: { if case .nestedRoot = $0 { true } else { false } }) { return report }

        // 3. manifest.json.
        let manifestBytes = archive[Manifest.fileName]
        if let manifestBytes {
            do {
                add(try Manifest(parsing: manifestBytes, maximumDepth: limits.maximumJSONDepth).problems(in: archive))
            } catch {
                add([error])
            }
        }

        // 4. order.json and what it references (needed before the signature: the certificate must
        //    name the order's type).
        var orderFindings: [OrderError] = []
        if let orderBytes = archive[OrderValidator.fileName] {
            orderFindings = checkContent(orderBytes, in: archive, into: &report)
        }

        // 5. The signature over the manifest bytes as received.
        if let manifestBytes, let signature = archive[Manifest.signatureFileName] {
            let now = clock()
            let outcome = SignatureVerifier(trustStore: trustStore, certificateCache: certificateCache).verify(
                signature: signature, manifest: manifestBytes, orderTypeIdentifier: report.summary.orderTypeIdentifier,
                time: time, now: now)
            report.signer = outcome.signer
            report.signingTime = outcome.signingTime
            switch time {
            case .now: report.verificationTime = now
            case .at(let date): report.verificationTime = date
            case .signingTime: report.verificationTime = outcome.signingTime
            }
            add(outcome.errors)
        }
        add(orderFindings)
        return report
    }

    /// order.json's validation and the files it references (step 4): the summary, the order and
    /// order.json go into `report`; the findings are returned, for the caller to add where it
    /// reports them.
    func checkContent(_ orderBytes: Data, in archive: ZipArchive, into report: inout VerificationReport) -> [OrderError] {
        report.orderJSON = orderBytes
        let validation = OrderValidator(maximumJSONDepth: limits.maximumJSONDepth).validate(orderBytes)
        report.summary = validation.summary
        let resourceProblems = OrderResourceChecker(archive: archive).problems(references: validation.fileReferences)
        report.order = resourceProblems.contains(where: \.isError) ? nil : validation.order
        return validation.errors + validation.warnings + resourceProblems
    }

    /// Required entries, and the common mistake of zipping the folder instead of its contents.
    static func layoutProblems(_ archive: ZipArchive) -> [ArchiveError] {
        let names = archive.names
        // Only when every name is in a folder are the folders collected (a package has files at its root).
        if !names.isEmpty, names.allSatisfy({ $0.utf8.contains(UInt8(ascii: "/")) }) {
            let folders = Set(names.map { $0.split(separator: "/", maxSplits: 1).first.map(String.init) ?? $0 })
            if folders.count == 1, let folder = folders.first, !folder.hasSuffix(".lproj") {
                return [.nestedRoot(folder: folder)]
            }
        }
        let passHint = archive.contains("pass.json") ? "this looks like a Wallet pass (pass.json), not an order" : nil
        return [OrderValidator.fileName, Manifest.fileName, Manifest.signatureFileName]
            .filter { !archive.contains($0) }
            .map { ArchiveError.missingFile($0, hint: $0 == OrderValidator.fileName ? passHint : nil) }
    }
}
