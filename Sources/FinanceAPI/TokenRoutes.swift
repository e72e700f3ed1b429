import Foundation
import HTTPTypes
import Hummingbird
import OrdersWebProtocol
import ServiceCore
import WalletConsent
import WalletOrders
import WalletWire

/// The OAuth endpoints clients call directly: `POST /finance/token` (RFC 6749 §4.1.3 and §6:
/// `authorization_code` with PKCE, `refresh_token`), `POST /finance/revoke` (RFC 7009), `POST
/// /finance/v1/picked-transactions` (the transaction picker's code, redeemed once for the chosen
/// transactions), and the authorization server's metadata at
/// `/.well-known/oauth-authorization-server` (RFC 8414), from which OAuth libraries configure
/// themselves.
///
/// Their refusals are ``OAuthRefusal``s, which the one status table answers in RFC 6749's shape,
/// `{"error": "invalid_grant", "error_description": …}`, which OAuth client libraries read.
/// Storage, restriction and availability failures keep the service's shape.
package struct TokenRoutes: Sendable {
    package typealias Context = OrdersRequestContext

    let wallet: WalletStore
    let rateLimiter: RateLimiter

    package init(wallet: WalletStore, rateLimiter: RateLimiter) {
        self.wallet = wallet
        self.rateLimiter = rateLimiter
    }

    package func add(to router: Router<Context>, table: RouteTable) {
        let finance = router.group("finance")
        table.add(.post, "token", prefix: "/finance", to: finance, use: token)
        table.add(.post, "revoke", prefix: "/finance", to: finance, use: revoke)
        table.add(.get, "oauth-authorization-server", prefix: "/.well-known", to: router.group(".well-known"), use: metadata)
        table.add(.post, "v1/picked-transactions", prefix: "/finance", to: finance, use: pickedTransactions)
    }

    struct PickedTransactions: Encodable {
        var transactions: [Transaction]
    }

    @Sendable func token(_ request: Request, context: Context) async throws -> Response {
        try await answering(request, context: context) { fields, client in
            switch fields.value("grant_type") {
            case "authorization_code":
                let tokens = try await wallet.consent.exchange(try Self.redemption(fields, client: client))
                return Response.json(status: .ok, body: tokens, headers: Self.noStore)
            case "refresh_token":
                guard let refresh = fields.value("refresh_token") else {
                    throw ConsentError.invalidRequest("refresh_token is required")
                }
                let tokens = try await wallet.consent.refresh(refresh, client: client)
                return Response.json(status: .ok, body: tokens, headers: Self.noStore)
            case let other:
                throw ConsentError.unsupportedGrantType(other ?? "")
            }
        }
    }

    /// RFC 7009: `token` (and an optional `token_type_hint`, which changes nothing: the token's
    /// own prefix says what it is). `200` with an empty body whether or not there was such a
    /// token of this client (§2.2); the client must authenticate as at the token endpoint.
    @Sendable func revoke(_ request: Request, context: Context) async throws -> Response {
        try await answering(request, context: context) { fields, client in
            for name in ["token", "token_type_hint"] where fields.values(name).count > 1 {
                throw ConsentError.invalidRequest("\(name) is given more than once")
            }
            guard let token = fields.value("token") else { throw ConsentError.invalidRequest("token is required") }
            try await wallet.consent.revoke(token: token, client: client)
            return Response(status: .ok, headers: Self.noStore)
        }
    }

    /// RFC 8414's metadata, for this server's issuer (``OrdersRequestContext/publicOrigin``).
    @Sendable func metadata(_ request: Request, context: Context) async throws -> Response {
        Response.json(status: .ok, body: AuthorizationServerMetadata(issuer: context.publicOrigin), headers: Self.noStore)
    }

    @Sendable func pickedTransactions(_ request: Request, context: Context) async throws -> Response {
        try await answering(request, context: context) { fields, client in
            let transactions = try await wallet.consent.redeemPick(try Self.redemption(fields, client: client))
            return Response.json(status: .ok, body: PickedTransactions(transactions: transactions), headers: Self.noStore)
        }
    }

    /// Reads the form and the client's credentials and runs `body`; its refusals are
    /// ``OAuthRefusal``s.
    private func answering(
        _ request: Request, context: Context, _ body: (FormFields, ClientCredentials) async throws -> Response
    ) async throws -> Response {
        guard rateLimiter.admit(client: context.clientAddress) else {
            throw ServiceRequestError.rateLimited(retryAfter: rateLimiter.retryAfter)
        }
        let fields = try await PageForm.read(request)
        let basic = request.headers[.authorization].map { BasicCredentials(header: $0) }
        do {
            for name in ["grant_type", "code", "code_verifier", "redirect_uri", "client_id", "client_secret", "refresh_token"]
            where fields.values(name).count > 1 {
                throw ConsentError.invalidRequest("\(name) is given more than once")
            }
            let credentials: ClientCredentials
            switch basic {
            case .some(let basic?):
                if let id = fields.value("client_id"), id != basic.user {
                    throw ConsentError.invalidRequest("client_id differs from the client that authenticated")
                }
                guard fields.value("client_secret") == nil else {
                    throw ConsentError.invalidRequest("send the client secret in one way only")
                }
                credentials = ClientCredentials(id: basic.user, secret: basic.password)
            case .some(nil):
                throw ConsentError.invalidClient
            case nil:
                guard let id = fields.value("client_id") else { throw ConsentError.invalidClient }
                credentials = ClientCredentials(id: id, secret: fields.value("client_secret"))
            }
            return try await body(fields, credentials)
        } catch let error as ConsentError {
            throw OAuthRefusal(error)
        }
    }

    private static func redemption(_ fields: FormFields, client: ClientCredentials) throws -> CodeRedemption {
        guard let code = fields.value("code") else { throw ConsentError.invalidRequest("code is required") }
        // A missing verifier or redirect URI fails the redemption after the code is used up, as any
        // other wrong detail does.
        return CodeRedemption(
            code: code, codeVerifier: fields.value("code_verifier"), redirectURI: fields.value("redirect_uri") ?? "",
            client: client)
    }

    /// RFC 6749 §5.1: tokens are never cached.
    static let noStore = OAuthRefusal.noStore
}
