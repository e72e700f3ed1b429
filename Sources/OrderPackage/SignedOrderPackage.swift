import Foundation

/// A package just signed: its entries in memory and the archive zipped from exactly those
/// entries (``OrderPackageBuilder/package(files:)``).
public struct SignedOrderPackage: Sendable {
    /// The entries, in archive order: the sources, `manifest.json`, `signature`.
    public let entries: ZipArchive
    /// The zip archive of ``entries``.
    public let archive: Data
    private let modificationDate: Date

    init(entries: [ZipArchive.Entry], modificationDate: Date) throws(OrderPackageBuilderError) {
        self.entries = ZipArchive(entries: entries)
        self.modificationDate = modificationDate
        archive = try Self.zip(entries, modificationDate: modificationDate)
    }

    private static func zip(_ entries: [ZipArchive.Entry], modificationDate: Date) throws(OrderPackageBuilderError) -> Data {
        var writer = ZipArchiveWriter(modificationDate: modificationDate)
        for entry in entries { writer.add(entry.name, contents: entry.contents, compression: entry.compression) }
        do {
            return try writer.finish()
        } catch {
            throw .archive(error)
        }
    }

    /// The same package with the entry `name` replaced by `contents` (zipped again): for tests
    /// that change a signed package before it is checked.
    public func replacing(_ name: String, with contents: Data) throws(OrderPackageBuilderError) -> SignedOrderPackage {
        let changed = entries.entries.map { entry in
            entry.name == name ? ZipArchive.Entry(name: name, contents: contents, compression: entry.compression) : entry
        }
        return try SignedOrderPackage(entries: changed, modificationDate: modificationDate)
    }
}
