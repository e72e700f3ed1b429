import Foundation

/// Words in every ``PageLanguage``: one JSON object of strings per language, compiled into the
/// binary (a copied `orders` needs no resource folder beside it), read once. The order page's
/// words (``OrderPageText``) and the service's pages each keep one; a test checks that every
/// language has exactly English's keys. A key missing at run time shows the English text, and a
/// key English lacks shows itself.
public struct LocalizedStrings: Sendable {
    /// Every language's table.
    public let tables: [PageLanguage: [String: String]]

    /// Reads each language's file from `file`; `folder` names them in the failure of a file that
    /// is not a JSON object of strings (a defect of the build, checked by the tests).
    public init(folder: String, file: (PageLanguage) -> [UInt8]) {
        var tables: [PageLanguage: [String: String]] = [:]
        for language in PageLanguage.allCases {
            guard let table = try? JSONDecoder().decode([String: String].self, from: Data(file(language))) else {
                preconditionFailure("\(folder)/\(language.rawValue).json is not a JSON object of strings")
            }
            tables[language] = table
        }
        self.tables = tables
    }

    /// The text of `key` in `language`, English when that language lacks it.
    public func text(_ key: String, in language: PageLanguage) -> String {
        tables[language]?[key] ?? tables[.english]?[key] ?? key
    }

    /// Every key English has.
    public var keys: Set<String> { Set(tables[.english]?.keys ?? [:].keys) }
}
