import Hummingbird
import OrdersWebProtocol
import WalletConsent
import WalletOrders

/// Authenticates the financial-data API once, before any of its routes runs: the bearer access
/// token's client goes into ``OrdersRequestContext/financeAccess``. A missing, unknown or
/// expired token is `401` with `WWW-Authenticate: Bearer … error="invalid_token"` (RFC 6750).
struct AccessTokenAuthenticator: RouterMiddleware {
    typealias Context = OrdersRequestContext

    let wallet: WalletStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard let token = AuthorizationHeader.credentials(scheme: "Bearer", in: request.headers[.authorization]) else {
            throw ConsentError.invalidToken
        }
        var context = context
        context.financeAccess = try await wallet.consent.authenticate(accessToken: token)
        return try await next(request, context)
    }
}
