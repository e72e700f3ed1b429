import HTTPTypes
import WalletConsent
import WalletPrimitives

/// A refusal of an OAuth endpoint a client calls directly (`/finance/token`, `/finance/revoke`,
/// picked transactions): the consent error, answered by ``HTTPStatusTable`` in RFC 6749 §5.2's
/// shape rather than the service's — `invalid_client` as `401` with `WWW-Authenticate: Basic`,
/// every other refusal `400` — never cached.
package struct OAuthRefusal: WalletError {
    package let error: ConsentError

    package init(_ error: ConsentError) {
        self.error = error
    }

    package var code: String { error.code }
    package var message: String { error.message }
    package var category: ErrorCategory { error.category }

    /// RFC 6749 §5.2's error body.
    package struct Body: Encodable {
        package var error: String
        package var errorDescription: String

        package enum CodingKeys: String, CodingKey {
            case error
            case errorDescription = "error_description"
        }
    }

    /// RFC 6749 §5.1: tokens, and refusals, are never cached.
    package static let noStore: HTTPFields = {
        var headers: HTTPFields = [.cacheControl: "no-store"]
        if let pragma = HTTPField.Name("Pragma") { headers[pragma] = "no-cache" }
        return headers
    }()
}
