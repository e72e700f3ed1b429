import Hummingbird
import OrdersWebProtocol
import ServiceCore
import WalletCore
import WalletOrders

/// Authenticates the merchant API once, before any of its routes runs: the request's bearer API
/// key's merchant becomes ``OrdersRequestContext/caller`` (hummingbird-auth's `AuthenticatorMiddleware`
/// pattern — the identity in the context, set in one place). A missing, unknown, revoked or wrong
/// key is `401` with `WWW-Authenticate: Bearer`; the lookup does equal work for each
/// (`WalletStore.authenticateAPIKey`).
struct APIKeyAuthenticator: RouterMiddleware {
    typealias Context = OrdersRequestContext

    let wallet: WalletStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard let token = AuthorizationHeader.credentials(scheme: "Bearer", in: request.headers[.authorization]),
            let key = try await wallet.authenticateAPIKey(token)
        else { throw ServiceRequestError.unauthenticated }
        var context = context
        context.caller = Merchant(key: key)
        return try await next(request, context)
    }
}
