import Foundation

/// The `<localization>.lproj/order.strings` tables of an order package, and the lookup Wallet
/// does when it shows an order: a string of order.json that is a key of the chosen table is
/// shown as that key's value; any other string is shown as it is.
///
/// The localization is chosen from the reader's preferred languages: an exact match
/// (`de-CH`, case-insensitive, `_` read as `-`), then the language alone (`de`), then another
/// region of the language (`de-AT`), and when nothing matches, the package's first
/// localization in alphabetical order — a reader always sees text, never `MERCHANT_NAME`.
///
/// ```swift
/// let localizations = try OrderLocalizations(archive: signedArchive)
/// let text = localizations.table(preferring: ["fr-CA", "en"]).text(for: order.merchant.displayName)
/// ```
public struct OrderLocalizations: Sendable {
    /// One localization's strings.
    public struct Table: Sendable, Hashable {
        /// The folder name without `.lproj` (`en`, `zh-Hans`); nil when the package has none.
        public var localization: String?
        public var strings: [String: String]

        public init(localization: String?, strings: [String: String]) {
            self.localization = localization
            self.strings = strings
        }

        /// `value`'s localized text, or `value` itself when it is not a key.
        public func text(for value: String) -> String {
            strings[value] ?? value
        }
    }

    /// Localization names (folder names without `.lproj`) that have an `order.strings`, sorted.
    public let localizations: [String]
    private let tables: [String: [String: String]]

    /// The tables of a package already read. An `order.strings` that does not parse is left out
    /// (`OrderVerifier` reports it; a stored order has passed verification).
    public init(archive: ZipArchive) {
        var tables: [String: [String: String]] = [:]
        for name in archive.names where Self.isStringsFile(name) {
            let folder = name.dropLast(OrderResourceChecker.stringsFileName.count + 1)
            guard !folder.contains("/"), let contents = archive[name],
                let strings = try? OrderStrings(parsing: contents)
            else { continue }
            tables[String(folder.dropLast(".lproj".count))] = Dictionary(
                strings.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        self.tables = tables
        localizations = tables.keys.sorted()
    }

    /// Reads the tables of a signed archive's bytes, inflating only its `order.strings` files.
    public init(archive data: Data, limits: ArchiveLimits = ArchiveLimits()) throws(ArchiveRejection) {
        self.init(archive: try ZipArchive(reading: data, limits: limits, including: Self.isStringsFile))
    }

    private static func isStringsFile(_ name: String) -> Bool {
        name.hasSuffix(".lproj/" + OrderResourceChecker.stringsFileName)
    }

    /// The table for the first of `preferred` (BCP 47 tags or POSIX locale names such as
    /// `de_CH.UTF-8`) that the package has, else its first localization.
    public func table(preferring preferred: [String]) -> Table {
        let chosen = Self.choose(from: localizations, preferring: preferred)
        return Table(localization: chosen, strings: chosen.flatMap { tables[$0] } ?? [:])
    }

    static func choose(from available: [String], preferring preferred: [String]) -> String? {
        func normalized(_ tag: String) -> String {
            // `de_CH.UTF-8@euro` → `de-ch`
            let base = tag.split(whereSeparator: { $0 == "." || $0 == "@" }).first.map(String.init) ?? tag
            return base.replacingOccurrences(of: "_", with: "-").lowercased()
        }
        let byNormalized = Dictionary(available.map { (normalized($0), $0) }, uniquingKeysWith: { first, _ in first })
        for tag in preferred.map(normalized) where !tag.isEmpty {
            if let exact = byNormalized[tag] { return exact }
            let language = String(tag.prefix { $0 != "-" })
            if let match = byNormalized[language] { return match }
            if let region = available.first(where: { normalized($0).hasPrefix(language + "-") }) { return region }
        }
        return available.first
    }
}
