import Hummingbird
import OrdersWebProtocol
import ServiceCore
import WalletConsent
import WalletOrders
import WalletPrimitives

/// Authenticates the financial-data API once, before any of its routes runs: the bearer access
/// token's client, with its access and the restriction (one statement), goes into
/// ``OrdersRequestContext/caller``. An unknown or expired token is
/// `401` with `WWW-Authenticate: Bearer … error="invalid_token"`; a request without any
/// credentials `401` with `WWW-Authenticate: Bearer realm="finance"` alone (RFC 6750 §3.1: no
/// error code when the request carried no authentication).
struct AccessTokenAuthenticator: RouterMiddleware {
    typealias Context = OrdersRequestContext

    let wallet: WalletStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard request.headers[.authorization] != nil else { throw MissingCredentials() }
        guard let token = AuthorizationHeader.credentials(scheme: "Bearer", in: request.headers[.authorization]) else {
            throw ConsentError.invalidToken
        }
        var context = context
        context.caller = DataClient(snapshot: try await wallet.consent.accessSnapshot(accessToken: token))
        return try await next(request, context)
    }
}
