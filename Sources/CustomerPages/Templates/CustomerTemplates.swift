import Mustache
import ServiceCore

/// The customer pages' Mustache templates, in the binary, parsed once: their own layout (the
/// order's stylesheet, no script, no form), the order page and the message page. `{{name}}`
/// escapes HTML; only the rendered order (already escaped by OrderRendering) is inserted whole.
enum CustomerTemplates {
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in [
            ("customerLayout", customerLayout), ("customerOrder", customerOrder), ("customerMessage", customerMessage),
        ] {
            // Constants checked by the page tests: one that does not parse is a defect of the build.
            guard let template = try? MustacheTemplate(string: text) else {
                preconditionFailure("template \(name) does not parse")
            }
            library.register(template, named: name)
        }
        return library
    }()

    /// Every customer page: the order's own stylesheet, no script, no form, no favicon request.
    static let customerLayout = """
        <!DOCTYPE html>
        <html lang="{{language}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta name="robots" content="noindex">
        <link rel="icon" href="data:,">
        <title>{{title}}</title>
        <link rel="stylesheet" href="/orders/static/order.css?v={{assetVersion}}">
        </head>
        <body class="order-page">
        <main>
        {{$content}}{{/content}}
        </main>
        </body>
        </html>
        """

    /// The customer's order page: the rendered order (OrderRendering, already escaped) under an
    /// Add to Apple Wallet button.
    static let customerOrder = """
        {{<customerLayout}}{{$content}}
        <p class="wallet-action"><a class="add-to-wallet" href="{{download}}" download="order.order">{{t.addToWallet}}</a></p>
        {{{order}}}
        {{/content}}{{/customerLayout}}
        """

    /// What every link that leads nowhere gets — wrong, tampered, expired, or an order that is
    /// not stored: one page, the same bytes, so that it tells nothing about which.
    static let customerMessage = """
        {{<customerLayout}}{{$content}}
        <article class="order"><section class="card" aria-labelledby="title"><h1 id="title">{{title}}</h1><p>{{text}}</p></section></article>
        {{/content}}{{/customerLayout}}
        """
}
