import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import OrderPackage
import ServiceCore

/// What every page's layout shows around the page: the title, and for a signed-in owner the
/// Settings link and the sign-out form (with the session's form token), in the page's language.
struct PageFrame {
    var title: String
    var signedIn: Bool
    var formToken: String
    var usesScript: Bool
    /// An operator console page: the console's name and its navigation in the top bar.
    var console: Bool
    /// The site's name in the title and the top bar (a stored property: templates see those only).
    var site: String
    var assetVersion = PageAssets.version
    /// The page's `lang`.
    var language: String
    /// The page's words, at `t` in every template.
    let text: PageText

    init(title: String, text: PageText, session formToken: String? = nil, usesScript: Bool = false, console: Bool = false) {
        self.title = title
        self.text = text
        language = text.language.rawValue
        signedIn = formToken != nil
        self.formToken = formToken ?? ""
        self.usesScript = usesScript
        self.console = console
        site = text[console ? "siteConsole" : "siteFinance"]
    }
}

/// A page's model: what its template shows, around its ``PageFrame``.
protocol PageModel {
    var frame: PageFrame { get }
}

/// The root a page's template reads: the model's properties, and the page's words at `t`.
private struct PageRoot: MustacheParent {
    let model: any PageModel

    func child(named name: String) -> Any? {
        if name == "t" { return model.frame.text }
        guard let value = Mirror(reflecting: model).children.first(where: { $0.label == name })?.value else { return nil }
        // An optional property is its value, or nothing (as Mustache reads any other object).
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }
}

/// A rendered page and the rules every page's response follows: HTML from the one template
/// library, and the same security headers — a Content-Security-Policy without `unsafe-inline`
/// that no other origin may frame (`frame-ancestors 'none'`, the consent sheet's defence against
/// clickjacking), no referrer, no caching of anything shown (`no-store`), no sniffing.
enum PageResponse {
    static func render(
        _ template: String, _ model: some PageModel, status: HTTPResponse.Status = .ok, formActions: [String] = [],
        imagesFromData: Bool = false, headers extra: HTTPFields = [:]
    ) -> Response {
        let html = PageTemplates.library.render(PageRoot(model: model), withTemplate: template) ?? ""
        var headers = securityHeaders(formActions: formActions, imagesFromData: imagesFromData)
        headers[.contentType] = "text/html; charset=utf-8"
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// `303 See Other` to `location`: after every form, so a reload never posts again.
    static func redirect(to location: String, formActions: [String] = [], headers extra: HTTPFields = [:]) -> Response {
        var headers = securityHeaders(formActions: formActions)
        headers[.location] = location
        headers.append(contentsOf: extra)
        return Response(status: .seeOther, headers: headers)
    }

    /// `formActions`: origins a form on the page may submit to, or be redirected to after
    /// submitting (browsers apply `form-action` to the redirect as well): a client's redirect URI.
    /// `imagesFromData`: the page shows a rendered order, whose images are `data:` URIs.
    static func securityHeaders(formActions: [String] = [], imagesFromData: Bool = false) -> HTTPFields {
        let actions = (["'self'"] + formActions).joined(separator: " ")
        var headers: HTTPFields = [
            .contentSecurityPolicy:
                "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'\(imagesFromData ? " data:" : ""); "
                + "form-action \(actions); "
                + "frame-ancestors 'none'; base-uri 'none'",
            .cacheControl: "no-store",
        ]
        if let name = HTTPField.Name("Referrer-Policy") { headers[name] = "no-referrer" }
        if let name = HTTPField.Name("X-Frame-Options") { headers[name] = "DENY" }
        if let name = HTTPField.Name("X-Content-Type-Options") { headers[name] = "nosniff" }
        if let name = HTTPField.Name("Cross-Origin-Opener-Policy") { headers[name] = "same-origin" }
        return headers
    }
}

/// The stylesheet and the script, served with a long cache lifetime under a name that changes with
/// their contents (`?v=` their digest).
enum PageAssets {
    static let version = String(SHA256Digest.hex(of: Data((Stylesheet.text + PagesScript.text).utf8)).prefix(12))

    static func response(_ text: String, type: String) -> Response {
        StaticAsset.response(text, type: type, version: version)
    }
}
