import ServiceCore

extension PageTemplates {
    /// Every page: the head with the one stylesheet (and the one script where a page wants it),
    /// the top bar with sign-out for a signed-in owner, and the page's content in `<main>`.
    static let layout = """
        <!DOCTYPE html>
        <html lang="{{frame.language}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>{{frame.title}} – {{frame.site}}</title>
        <link rel="stylesheet" href="/finance/static/pages.css?v={{frame.assetVersion}}">
        <link rel="icon" href="/finance/static/icon.svg?v={{frame.assetVersion}}" type="image/svg+xml">
        {{#frame.usesScript}}<script src="/finance/static/pages.js?v={{frame.assetVersion}}" defer></script>{{/frame.usesScript}}
        {{$head}}{{/head}}
        </head>
        <body{{#frame.console}} class="console"{{/frame.console}}>
        <a class="skip" href="#main">{{t.skipToContent}}</a>
        <header class="top">
        <span class="brand">{{frame.site}}</span>
        {{#frame.signedIn}}
        <nav aria-label="Owner">
        {{#frame.console}}<a href="/console/orders">Orders</a> <a href="/console/upload">Upload</a> \
        <a href="/console/outbox">Push Outbox</a> <a href="/console/tracking">Tracking</a> \
        <a href="/console/keys">API Keys</a>{{/frame.console}}
        {{^frame.console}}<a href="/finance/settings">{{t.settings}}</a>{{/frame.console}}
        <form method="post" action="/finance/sign-out" class="inline">
        <input type="hidden" name="csrf_token" value="{{frame.formToken}}">
        <button type="submit" class="link">{{t.signOut}}</button>
        </form>
        </nav>
        {{/frame.signedIn}}
        </header>
        <main id="main">
        {{$content}}{{/content}}
        </main>
        </body>
        </html>
        """

    /// A page that only says something: an error, or "signed out".
    static let message = """
        {{<layout}}{{$content}}
        <section class="card narrow" aria-labelledby="title">
        <h1 id="title">{{heading}}</h1>
        <p>{{text}}</p>
        {{#code}}<p class="fine">{{t.errorCode}} <code>{{code}}</code></p>{{/code}}
        {{#link}}<p><a class="button" href="{{href}}">{{label}}</a></p>{{/link}}
        </section>
        {{/content}}{{/layout}}
        """

    /// One step back onto this site: a person arriving from another site brings no
    /// `SameSite=Strict` cookie, so the page reloads itself from here, and the reload brings it.
    static let bounce = """
        {{<layout}}{{$head}}<meta http-equiv="refresh" content="0;url={{location}}">{{/head}}{{$content}}
        <section class="card narrow" aria-labelledby="title">
        <h1 id="title">{{t.oneMoment}}</h1>
        <p><a class="button primary" href="{{location}}">{{t.continue}}</a></p>
        </section>
        {{/content}}{{/layout}}
        """
}
