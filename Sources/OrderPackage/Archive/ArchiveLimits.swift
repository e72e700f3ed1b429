/// Upper bounds applied while reading an archive, so that hostile input (zip bombs, huge entry
/// tables, deeply nested JSON) is refused before it costs memory or time.
///
/// The defaults suit real order packages, which are tens to hundreds of kilobytes:
///
/// ```swift
/// var limits = ArchiveLimits()          // 10 MiB archive, 256 entries, 16 MiB per entry, 64 MiB total
/// limits.maximumArchiveSize = 5 << 20   // Apple's documented 5 MB bundle limit
/// let verifier = OrderVerifier(limits: limits)
/// ```
public struct ArchiveLimits: Sendable, Hashable, Codable {
    /// Largest accepted archive, in bytes as received (compressed).
    public var maximumArchiveSize: Int
    /// Most entries in the central directory, directories included.
    public var maximumEntryCount: Int
    /// Largest uncompressed entry, enforced while inflating.
    public var maximumEntrySize: Int
    /// Largest sum of uncompressed entries, enforced while inflating.
    public var maximumTotalUncompressedSize: Int
    /// Deepest nesting of arrays and objects accepted in `manifest.json` and `order.json`.
    public var maximumJSONDepth: Int

    public init(
        maximumArchiveSize: Int = 10 << 20,
        maximumEntryCount: Int = 256,
        maximumEntrySize: Int = 16 << 20,
        maximumTotalUncompressedSize: Int = 64 << 20,
        maximumJSONDepth: Int = 64
    ) {
        self.maximumArchiveSize = maximumArchiveSize
        self.maximumEntryCount = maximumEntryCount
        self.maximumEntrySize = maximumEntrySize
        self.maximumTotalUncompressedSize = maximumTotalUncompressedSize
        self.maximumJSONDepth = maximumJSONDepth
    }
}

extension ArchiveLimits {
    /// The findings reading would make of these entries' count and sizes, for entries already in
    /// memory (a package just built, ``OrderVerifier/verify(package:at:)``): a package an upload of
    /// its archive would refuse is refused the same way.
    func problems(in entries: [ZipArchive.Entry]) -> [ArchiveError] {
        guard entries.count <= maximumEntryCount else {
            return [.tooManyEntries(count: entries.count, limit: maximumEntryCount)]
        }
        let large = entries.filter { $0.contents.count > maximumEntrySize }
        guard large.isEmpty else { return large.map { .entryTooLarge(entry: $0.name, limit: maximumEntrySize) } }
        guard entries.reduce(0, { $0 + $1.contents.count }) <= maximumTotalUncompressedSize else {
            return [.uncompressedTooLarge(limit: maximumTotalUncompressedSize)]
        }
        return []
    }
}
