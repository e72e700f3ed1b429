import Foundation
import WalletCore

/// An OAuth 2.0 authorization request with PKCE (RFC 6749 §4.1.1, RFC 7636 §4.3), as the
/// consent sheet (`/finance/authorize`) and the transaction picker (`/finance/pick`) receive it.
///
/// It is read in two steps, because the two kinds of error go to different places: the
/// ``Target`` (client and redirect URI) must be checked against the registration before anything
/// is sent to the redirect URI — a mismatch is shown to the person, never redirected (an open
/// redirect is how codes are stolen). Every other error is returned to the client at its
/// redirect URI with `error=invalid_request` and the `state`.
public struct AuthorizationRequest: Sendable, Hashable {
    /// Who asks and where the answer goes; not yet checked against the registration.
    public struct Target: Sendable, Hashable {
        public var clientID: ClientIdentifier
        public var redirectURI: String

        public init(clientID: ClientIdentifier, redirectURI: String) {
            self.clientID = clientID
            self.redirectURI = redirectURI
        }
    }

    public var target: Target
    /// Returned unchanged with the answer, so the client can match it to its request (and tell a
    /// forged answer).
    public var state: String
    /// `BASE64URL(SHA256(verifier))`.
    public var codeChallenge: String

    public init(target: Target, state: String, codeChallenge: String) {
        self.target = target
        self.state = state
        self.codeChallenge = codeChallenge
    }

    /// The parameters, as `name=value` pairs in the order given; the same for both pages.
    public var parameters: [(String, String)] {
        [
            ("client_id", target.clientID.rawValue), ("redirect_uri", target.redirectURI), ("state", state),
            ("code_challenge", codeChallenge), ("code_challenge_method", PKCE.method), ("response_type", "code"),
        ]
    }

    /// The client and redirect URI; ``ConsentError/unknownClient`` when either is missing,
    /// repeated or malformed (shown to the person, not redirected).
    public static func target(in query: [(name: String, value: String)]) throws(ConsentError) -> Target {
        guard let client = try? single("client_id", in: query), let clientID = ClientIdentifier(rawValue: client),
            let redirect = try? single("redirect_uri", in: query), redirect.utf8.count <= RedirectURI.maximumLength
        else { throw .unknownClient }
        return Target(clientID: clientID, redirectURI: redirect)
    }

    /// The whole request, once ``target(in:)`` was checked. `responseTypeRequired`: the consent
    /// sheet needs `response_type=code`; the picker accepts it or nothing.
    public static func parse(
        _ query: [(name: String, value: String)], target: Target, responseTypeRequired: Bool
    ) throws(ConsentError) -> AuthorizationRequest {
        let responseType = try optional("response_type", in: query)
        if responseType != "code" && (responseTypeRequired || responseType != nil) {
            throw .invalidRequest("response_type must be code")
        }
        guard let state = try optional("state", in: query), (1...512).contains(state.utf8.count),
            state.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        else { throw .invalidRequest("state is required: 1–512 printable ASCII characters") }
        guard try optional("code_challenge_method", in: query) == PKCE.method else {
            throw .invalidRequest("code_challenge_method must be S256")
        }
        guard let challenge = try optional("code_challenge", in: query), PKCE.isValidChallenge(challenge) else {
            throw .invalidRequest("code_challenge must be the 43-character base64url SHA-256 of the verifier")
        }
        return AuthorizationRequest(target: target, state: state, codeChallenge: challenge)
    }

    /// The one value of `name`; RFC 6749 §3.1: a parameter sent twice is an invalid request.
    private static func optional(_ name: String, in query: [(name: String, value: String)]) throws(ConsentError) -> String? {
        let values = query.filter { $0.name == name }
        guard values.count <= 1 else { throw .invalidRequest("\(name) is given more than once") }
        return values.first?.value
    }

    private static func single(_ name: String, in query: [(name: String, value: String)]) throws(ConsentError) -> String {
        guard let value = try optional(name, in: query), !value.isEmpty else { throw .invalidRequest("\(name) is required") }
        return value
    }
}
