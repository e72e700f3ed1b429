import Foundation

/// The order page's own words (headings, labels, status names) in one ``PageLanguage``: one JSON
/// file per language under `Strings/`, compiled into the binary (a copied `orders` needs no
/// resource folder beside it). A text with `%@` takes one value. Every key of `en.json` is in
/// every file (`OrderPageTextTests`); a key missing at run time shows the English text.
struct OrderPageText: Sendable {
    let language: PageLanguage
    private let table: [String: String]

    init(_ language: PageLanguage) {
        self.language = language
        table = Self.tables[language] ?? [:]
    }

    /// The text of `key`, its `%@` replaced by `value` (literally: a value is never a format).
    subscript(_ key: String, _ value: String? = nil) -> String {
        let text = table[key] ?? Self.tables[.english]?[key] ?? key
        guard let value else { return text }
        return text.replacingOccurrences(of: "%@", with: value)
    }

    /// Every language's table, read once from the embedded files.
    static let tables: [PageLanguage: [String: String]] = {
        var tables: [PageLanguage: [String: String]] = [:]
        for language in PageLanguage.allCases {
            let bytes = embedded(language)
            guard let table = try? JSONDecoder().decode([String: String].self, from: Data(bytes)) else {
                preconditionFailure("Strings/\(language.rawValue).json is not a JSON object of strings")
            }
            tables[language] = table
        }
        return tables
    }()

    static func embedded(_ language: PageLanguage) -> [UInt8] {
        switch language {
        case .english: PackageResources.en_json
        case .german: PackageResources.de_json
        case .french: PackageResources.fr_json
        case .spanish: PackageResources.es_json
        case .japanese: PackageResources.ja_json
        case .simplifiedChinese: PackageResources.zh_Hans_json
        }
    }

    /// Every key English has (the lookup of a return's own status words asks it on each render).
    static let keys: Set<String> = Set(tables[.english]?.keys ?? [:].keys)
}
