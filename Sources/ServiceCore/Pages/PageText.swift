import Hummingbird
import Mustache
import OrderRendering

/// The pages' own words in the reader's language — the consent sheet, the pickers, Settings,
/// sign-in, the message pages and the customer pages — from `Pages/Strings/`, one file per
/// ``OrderRendering/PageLanguage`` (the mechanism of the order page's words). A text names its
/// values in braces (`{app}`, `{count}`): the page's ``values``, or those a call passes.
///
/// Templates read a text as `{{t.key}}` (``PageResponse`` puts the page's text at `t`); Mustache
/// escapes it, values included. What the pages do not translate: the operator console (its
/// readers are the operators), an error's own sentence under its translated heading, merchant
/// category names, and whatever the data says (account and merchant names).
package struct PageText: Sendable, MustacheParent {
    package let language: PageLanguage
    /// The values every text of the page may name (the app's name on the consent pages).
    package var values: [String: String]

    /// The operator console's words: English (its readers are the operators).
    package static let console = PageText(.english)

    package init(_ language: PageLanguage, values: [String: String] = [:]) {
        self.language = language
        self.values = values
    }

    /// The first language of the request's `Accept-Language` that the pages are written in.
    package init(_ request: Request, values: [String: String] = [:]) {
        self.init(PageLocale(acceptLanguage: request.headers[.acceptLanguage]), values: values)
    }

    /// The first of the reader's languages (already read, for dates and amounts) that the pages
    /// are written in.
    package init(_ locale: PageLocale, values: [String: String] = [:]) {
        self.init(PageLanguage.choose(from: locale.languages), values: values)
    }

    /// This text with `name` set for every text of the page.
    package func with(_ name: String, _ value: String) -> PageText {
        var text = self
        text.values[name] = value
        return text
    }

    /// The text of `key`, each `{name}` replaced by its value — `values` first, then the page's —
    /// in one pass (a value is never read for names); an unknown name stays as written.
    package subscript(_ key: String, _ extra: [String: String] = [:]) -> String {
        let text = Self.strings.text(key, in: language)
        guard text.contains("{") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if let value = extra[name] ?? values[name] {
                result += value
            } else {
                result += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    package func child(named name: String) -> Any? { self[name] }

    package static let strings = LocalizedStrings(folder: "ServiceCore/Pages/Strings") { language in
        switch language {
        case .english: PackageResources.en_json
        case .german: PackageResources.de_json
        case .french: PackageResources.fr_json
        case .spanish: PackageResources.es_json
        case .japanese: PackageResources.ja_json
        case .simplifiedChinese: PackageResources.zh_Hans_json
        }
    }
}
