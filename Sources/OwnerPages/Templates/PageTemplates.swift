import Mustache
import ServiceCore

/// The owner's pages' Mustache templates, in the binary (a copied `orders` executable needs no resource
/// folder), parsed once. `{{name}}` escapes HTML, attribute quotes included; no template uses
/// the unescaped forms.
enum PageTemplates {
    /// Every template, by name.
    static let sources: [(name: String, text: String)] = [
        ("layout", layout), ("message", message), ("bounce", bounce), ("signIn", signIn), ("consentSheet", consentSheet),
        ("consentConfirm", consentConfirm),
        ("accountPicker", accountPicker), ("transactionPicker", transactionPicker), ("pickReview", pickReview),
        ("settings", settings), ("consoleOrders", consoleOrders), ("consoleOrder", consoleOrder),
        ("consoleKeys", consoleKeys), ("consoleDiff", consoleDiff), ("consoleUpload", consoleUpload),
        ("consoleOutbox", consoleOutbox), ("consoleTracking", consoleTracking), ("consoleChange", consoleChange),
    ]

    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in sources {
            // The templates are constants checked by the page tests: one that does not parse is a
            // defect of this build, not a runtime condition.
            guard let template = try? MustacheTemplate(string: text) else {
                preconditionFailure("template \(name) does not parse")
            }
            library.register(template, named: name)
        }
        return library
    }()

    /// The hidden fields that carry an authorization request from page to page.
    static let requestFields = """
        {{#request}}<input type="hidden" name="{{name}}" value="{{value}}">{{/request}}
        """
}
