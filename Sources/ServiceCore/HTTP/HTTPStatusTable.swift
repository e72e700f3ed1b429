import HTTPTypes
import Hummingbird
import OrdersWebProtocol
import WalletConsent
import WalletPrimitives
import WalletWire

/// The one table from library errors to HTTP answers — status, headers and body — for every route
/// of the service (the CLI's equivalent is its exit-status table). The OAuth endpoints' refusals
/// (``OAuthRefusal``) are rows of it: RFC 6749's statuses, `WWW-Authenticate` and body.
public enum HTTPStatusTable {
    /// The status of each category.
    public static func status(of category: ErrorCategory) -> HTTPResponse.Status {
        switch category {
        case .invalidInput: .badRequest
        case .notFound: .notFound
        case .conflict: .conflict
        case .unauthorized: .forbidden
        // Restriction is temporary and lifted by the operator: try again later.
        case .restricted: .serviceUnavailable
        // This deployment does not provide the data type at all.
        case .unavailable: .notImplemented
        // The store is busy, unreachable or damaged: nothing the client did wrong.
        case .storage: .serviceUnavailable
        }
    }

    /// Codes whose documented status is not their category's.
    public static let statusByCode: [String: HTTPResponse.Status] = [
        // Not authenticated at all (no or wrong token or key), as opposed to authenticated but
        // not allowed (403).
        "webService.unauthorized": .unauthorized,
        "api.unauthenticated": .unauthorized,
        // Well-formed HTTP carrying an archive that fails verification.
        "store.invalidArchive": .unprocessableContent,
        "request.bodyTooLarge": .contentTooLarge,
        "request.unsupportedMediaType": .unsupportedMediaType,
        "request.methodNotAllowed": .methodNotAllowed,
        "request.rateLimited": .tooManyRequests,
        "webService.registrationLimit": .conflict,
        // The financial-data API's bearer token, and a client that did not authenticate.
        "consent.invalidToken": .unauthorized,
        "consent.invalidClient": .unauthorized,
        "consent.signInThrottled": .tooManyRequests,
        // Authoring (docs/authoring.md): content that is JSON but breaks what the service owns
        // is refused as an invalid archive is; a type with no signing identity is the service's
        // state, not the request's; a key that cannot be loaded or a certificate expired since it
        // was added is the service unable to sign for now.
        "authoring.identifierMismatch": .unprocessableContent,
        // draft-ietf-httpapi-idempotency-key-header: a key reused for another payload is 422.
        "request.idempotencyKeyReused": .unprocessableContent,
        "authoring.immutableField": .unprocessableContent,
        // A leaked API key must not send devices (and their token) to another host.
        "authoring.webServiceURLNotAllowed": .unprocessableContent,
        "signing.notFound": .conflict,
        // The deployment has no public URL to give authored orders: the operator's to fix.
        "authoring.publicURLRequired": .serviceUnavailable,
        "signer.invalidPrivateKey": .serviceUnavailable,
        "signer.secretUnavailable": .serviceUnavailable,
        "signing.certificateExpired": .serviceUnavailable,
        "signing.untrustedChain": .serviceUnavailable,
        // Tracking webhooks (docs/tracking.md): a body not signed by the endpoint's secret is
        // not authenticated (401), as a missing API key is.
        "tracking.unsigned": .unauthorized,
        "tracking.badSignature": .unauthorized,
        "tracking.stale": .unauthorized,
        "tracking.bodyTooLarge": .contentTooLarge,
        "store.eventAlreadyApplied": .conflict,
    ]

    /// The headers RFC 9110 asks for beside some statuses: the authentication scheme of a `401`
    /// (`AppleOrder` on the device routes, `Bearer` on the merchant API), `Allow` on a `405`,
    /// `Retry-After` on a `429`, on a `503` for a store that is busy or unreachable — a pool with
    /// no free connection, a database failing over — rather than damaged, and on the `409` of an
    /// authoring request that other writers kept overtaking (`authoring.contended`): 1 second.
    public static func headers(of error: any WalletError) -> HTTPFields {
        switch error {
        case let error as ServiceRequestError:
            switch error {
            case .unauthenticated: return [.wwwAuthenticate: #"Bearer realm="orders""#]
            case .methodNotAllowed(_, let allowed): return [.allow: allowed.joined(separator: ", ")]
            case .rateLimited(let seconds): return [.retryAfter: String(seconds)]
            default: return [:]
            }
        case let refusal as OAuthRefusal:
            var headers = OAuthRefusal.noStore
            if refusal.error == .invalidClient { headers[.wwwAuthenticate] = #"Basic realm="finance""# }
            return headers
        case let error as ConsentError:
            switch error {
            case .invalidToken: return [.wwwAuthenticate: #"Bearer realm="finance", error="invalid_token""#]
            case .invalidClient: return [.wwwAuthenticate: #"Basic realm="finance""#]
            case .signInThrottled(let seconds): return [.retryAfter: String(seconds)]
            default: return [:]
            }
        case is MissingCredentials:
            return [.wwwAuthenticate: #"Bearer realm="finance""#]
        default:
            if error.code == "store.unavailable" || error.code == "authoring.contended" { return [.retryAfter: "1"] }
            // RFC 9110 §11.6.1: a 401 names how to authenticate; here, the provider's signature.
            if ["tracking.unsigned", "tracking.badSignature", "tracking.stale"].contains(error.code) {
                return [.wwwAuthenticate: #"Signature realm="tracking""#]
            }
            return error.code == "webService.unauthorized" ? [.wwwAuthenticate: #"AppleOrder realm="orders""#] : [:]
        }
    }

    public static func status(of error: any WalletError) -> HTTPResponse.Status {
        // RFC 6749 §5.2: 401 for a client that did not authenticate, 400 for every other refusal.
        if let refusal = error as? OAuthRefusal { return refusal.error == .invalidClient ? .unauthorized : .badRequest }
        return statusByCode[error.code] ?? status(of: error.category)
    }

    /// The answer to `error`: its status and headers, and the service's error shape
    /// (`{"error": {"code", "message", "path"}}`) — or, for an ``OAuthRefusal``, RFC 6749's
    /// `{"error", "error_description"}`, which OAuth client libraries read.
    package static func response(for error: any WalletError) -> Response {
        let status = status(of: error)
        let headers = headers(of: error)
        if let refusal = error as? OAuthRefusal {
            return Response.json(
                status: status, body: OAuthRefusal.Body(error: refusal.error.oauthError, errorDescription: refusal.message),
                headers: headers)
        }
        return Response.json(status: status, body: WireError(error), headers: headers)
    }
}
