import Hummingbird
import ServiceCore
import WalletOrders

/// Puts the owner's session in the request context when the session cookie names a current one
/// (``OrdersRequestContext/ownerSession``), once, before any page runs: hummingbird-auth's
/// authenticator pattern. Pages that need the owner redirect to sign-in when it is nil.
struct OwnerSessionMiddleware: RouterMiddleware {
    typealias Context = OrdersRequestContext

    let wallet: WalletStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        var context = context
        let cookies = PageCookies(secure: context.isSecure)
        if let cookie = cookies.value(cookies.sessionName, in: request) {
            context.ownerSession = try await wallet.consent.session(cookie: cookie)
        }
        return try await next(request, context)
    }
}
