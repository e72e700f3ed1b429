import Mustache

/// The order's templates, in the binary, parsed once. An optional is looked up as `{{#.name}}`:
/// Mustache climbs to an enclosing object for a plain name that is nil here (a fulfillment
/// without a barcode would show the order's). `{{name}}` escapes HTML (attribute quotes
/// included). Unescaped are only what this module made: `{{{svg}}}`, a barcode it drew (its label
/// escaped by ``HTMLText``), and the images' `data:` URIs (``OrderImages``: a sniffed type and
/// base64, nothing to escape — escaping them character by character was a fifth of a render).
enum OrderTemplates {
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in [
            ("order", order), ("fields", fields), ("lineItems", lineItems), ("barcode", barcode), ("document", document),
        ] {
            // Constants checked by the tests: one that does not parse is a defect of this build.
            guard let template = try? MustacheTemplate(string: text) else {
                preconditionFailure("template \(name) does not parse")
            }
            library.register(template, named: name)
        }
        return library
    }()

    static let fields = """
        {{^empty(details)}}<dl class="fields">{{#details}}<dt>{{label}}</dt><dd{{#identifier}} class="id"{{/identifier}}>{{#.link}}<a href="{{href}}" rel="noopener noreferrer">{{text}}</a>{{/.link}}{{^.link}}{{value}}{{/.link}}</dd>{{/details}}</dl>{{/empty(details)}}
        """

    static let lineItems = """
        <ul class="items">
        {{#lineItems}}<li>{{#.image}}<img class="thumb" src="{{{image}}}" alt="">{{/.image}}{{^.image}}<span class="thumb" aria-hidden="true"></span>{{/.image}}\
        <span class="item"><span class="item-title">{{title}}</span>{{#.subtitle}}<span class="sub">{{subtitle}}</span>{{/.subtitle}}\
        <span class="sub">{{quantity}}</span></span>{{#.price}}<span class="price">{{price}}</span>{{/.price}}</li>
        {{/lineItems}}</ul>
        """

    static let barcode = """
        <figure class="code">{{#.svg}}{{{svg}}}{{/.svg}}<figcaption>{{caption}}</figcaption></figure>
        """

    static let order = """
        <article class="order" aria-labelledby="order-title">
        <header class="order-head">
        {{#merchant}}{{#.logo}}<img class="logo" src="{{{logo}}}" alt="">{{/.logo}}
        <div><p class="merchant">{{name}}</p>{{#.link}}<a class="sub" href="{{href}}" rel="noopener noreferrer">{{text}}</a>{{/.link}}</div>{{/merchant}}
        </header>
        <section class="card" aria-labelledby="order-title">
        <h1 id="order-title">{{heading}}</h1>
        <p><span class="badge {{status}}">{{statusLabel}}</span>{{#.statusDescription}} <span class="status-text">{{statusDescription}}</span>{{/.statusDescription}}</p>
        {{>fields}}
        {{#.provider}}<p class="provider">{{#.logoLight}}<picture>{{#.logoDark}}<source srcset="{{{logoDark}}}" media="(prefers-color-scheme: dark)">{{/.logoDark}}<img src="{{{logoLight}}}" alt=""></picture>{{/.logoLight}}\
        {{before}}{{#.link}}<a href="{{href}}" rel="noopener noreferrer">{{name}}</a>{{/.link}}{{^.link}}{{name}}{{/.link}}{{after}}</p>{{/.provider}}
        {{#.barcode}}{{>barcode}}{{/.barcode}}
        {{#.manage}}<p><a class="button" href="{{href}}" rel="noopener noreferrer">{{text}}</a></p>{{/.manage}}
        </section>
        {{#fulfillments}}
        <section class="card {{kind}}" aria-labelledby="{{id}}">
        <h2 id="{{id}}">{{heading}}</h2>
        <p><span class="badge {{status}}">{{statusLabel}}</span>{{#.statusDescription}} <span class="status-text">{{statusDescription}}</span>{{/.statusDescription}}</p>
        {{>fields}}
        {{^empty(address)}}<address>{{#address}}<span>{{.}}</span>{{/address}}</address>{{/empty(address)}}
        {{#.barcode}}{{>barcode}}{{/.barcode}}
        {{^empty(lineItems)}}{{>lineItems}}{{/empty(lineItems)}}
        {{#links}}<p><a class="button" href="{{href}}" rel="noopener noreferrer">{{text}}</a></p>{{/links}}
        </section>
        {{/fulfillments}}
        {{^empty(lineItems)}}<section class="card" aria-labelledby="items-title"><h2 id="items-title">{{words.items}}</h2>{{>lineItems}}</section>{{/empty(lineItems)}}
        {{#.payment}}
        <section class="card" aria-labelledby="payment-title">
        <h2 id="payment-title">{{words.payment}}</h2>
        <dl class="fields amounts">{{#summary}}<dt>{{label}}</dt><dd>{{value}}</dd>{{/summary}}<dt class="total">{{words.total}}</dt><dd class="total">{{total}}</dd></dl>
        {{#.statusLabel}}<p><span class="badge">{{statusLabel}}</span></p>{{/.statusLabel}}
        {{#.methods}}<p class="sub">{{methods}}</p>{{/.methods}}
        {{^empty(transactions)}}<h3>{{words.transactions}}</h3><dl class="fields">{{#transactions}}<dt>{{label}}</dt><dd>{{value}}</dd>{{/transactions}}</dl>{{/empty(transactions)}}
        </section>
        {{/.payment}}
        {{#.returns}}
        <section class="card" aria-labelledby="returns-title">
        <h2 id="returns-title">{{words.returns}}</h2>
        {{>fields}}
        {{#links}}<p><a class="button" href="{{href}}" rel="noopener noreferrer">{{text}}</a></p>{{/links}}
        {{#.returns}}<section class="return" aria-labelledby="{{id}}"><h3 id="{{id}}">{{heading}}</h3>
        <p><span class="badge {{status}}">{{statusLabel}}</span>{{#.statusDescription}} <span class="status-text">{{statusDescription}}</span>{{/.statusDescription}}</p>
        {{>fields}}{{#links}}<p><a href="{{href}}" rel="noopener noreferrer">{{text}}</a></p>{{/links}}</section>{{/.returns}}
        </section>
        {{/.returns}}
        {{#merchant}}{{^empty(contact)}}<section class="card" aria-labelledby="contact-title"><h2 id="contact-title">{{name}}</h2>\
        <dl class="fields">{{#contact}}<dt>{{label}}</dt><dd>{{#.link}}<a href="{{href}}" rel="noopener noreferrer">{{text}}</a>{{/.link}}{{^.link}}{{value}}{{/.link}}</dd>{{/contact}}</dl></section>{{/empty(contact)}}{{/merchant}}
        </article>
        """

    /// A page holding nothing but the order, its style inline: what `orders preview` writes (a
    /// file opened from disk: no server, no network).
    static let document = """
        <!DOCTYPE html>
        <html lang="{{language}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
        <title>{{title}}</title>
        <style>{{{stylesheet}}}</style>
        </head>
        <body class="order-page">
        <main>
        {{{order}}}
        </main>
        </body>
        </html>
        """
}
