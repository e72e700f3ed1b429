import Foundation
import HTTPTypes
import Hummingbird
import OrdersWebProtocol
import ServiceCore
import WalletPrimitives

/// What a page that needs the owner answers when nobody is signed in: sign-in, then back here.
///
/// A person who arrives from another site (a client's "Connect" button) brings no
/// `SameSite=Strict` cookie even when signed in; when the browser says so (`Sec-Fetch-Site:
/// cross-site`) and no cookie came, the page first reloads itself from this site, and that
/// request brings the cookie if there is one.
enum OwnerGate {
    static func signIn(_ request: Request, context: OrdersRequestContext) -> Response {
        let path = LocalPath.isLocal(request.uri.path) ? request.uri.path : "/finance/settings"
        let here = path + (request.uri.query.map { "?" + $0 } ?? "")
        let crossSite = HTTPField.Name.secFetchSite.flatMap { request.headers[$0] } == "cross-site"
        if crossSite, request.headers[.cookie] == nil, request.method == .get {
            let text = PageText(request)
            return PageResponse.render(
                "bounce", BounceModel(frame: PageFrame(title: text["continue"], text: text), location: here), headers: [:])
        }
        return PageResponse.redirect(to: "/finance/sign-in?next=" + PercentEncoding.encode(here))
    }

    /// Where to go after signing in: a path on this site's financial-data pages or console, or
    /// Settings.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.utf8.count <= 4_000, next.hasPrefix("/finance/") || next.hasPrefix("/console/"),
            LocalPath.isLocal(next)
        else { return "/finance/settings" }
        return next
    }
}

struct BounceModel: PageModel {
    var frame: PageFrame
    var location: String
}

/// The message page's model.
struct MessageModel: PageModel {
    struct Link {
        var href: String
        var label: String
    }

    var frame: PageFrame
    var heading: String
    var text: String
    var code: String?
    var link: Link?
}
