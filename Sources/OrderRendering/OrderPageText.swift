import Foundation

/// The order page's own words (headings, labels, status names) in one ``PageLanguage``, from the
/// ``LocalizedStrings`` of `Strings/`. A text with `%@` takes one value. Every key of `en.json`
/// is in every file (`OrderPageTextTests`).
struct OrderPageText: Sendable {
    let language: PageLanguage
    private let table: [String: String]

    init(_ language: PageLanguage) {
        self.language = language
        table = Self.strings.tables[language] ?? [:]
    }

    /// The text of `key`, its `%@` replaced by `value` (literally: a value is never a format).
    subscript(_ key: String, _ value: String? = nil) -> String {
        let text = table[key] ?? Self.strings.text(key, in: .english)
        guard let value else { return text }
        return text.replacingOccurrences(of: "%@", with: value)
    }

    /// Every language's table, read once from the embedded files.
    static let strings = LocalizedStrings(folder: "OrderRendering/Strings") { language in
        switch language {
        case .english: PackageResources.en_json
        case .german: PackageResources.de_json
        case .french: PackageResources.fr_json
        case .spanish: PackageResources.es_json
        case .japanese: PackageResources.ja_json
        case .simplifiedChinese: PackageResources.zh_Hans_json
        }
    }

    static var tables: [PageLanguage: [String: String]] { strings.tables }

    /// Every key English has (the lookup of a return's own status words asks it on each render).
    static let keys: Set<String> = strings.keys
}
