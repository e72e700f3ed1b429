import Hummingbird
import ServiceCore
import WalletOrders

/// Puts the signed-in ``Owner`` in the request context (``OrdersRequestContext/caller``) when the
/// session cookie names a current session, once, before any page runs: hummingbird-auth's
/// authenticator pattern. Pages that need the owner are mounted on an ``OwnerContext``.
struct OwnerSessionMiddleware: RouterMiddleware {
    typealias Context = OrdersRequestContext

    let wallet: WalletStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        var context = context
        let cookies = PageCookies(secure: context.isSecure)
        if let cookie = cookies.value(cookies.sessionName, in: request) {
            context.caller = try await wallet.consent.session(cookie: cookie).map(Owner.init)
        }
        return try await next(request, context)
    }
}
