import Foundation
import WalletPrimitives

/// Why the consent machinery refused: a malformed or unauthorized authorization request, a code
/// or token that does not hold, a client that cannot authenticate, a sign-in refused. Every case
/// has a stable code; none carries a secret.
///
/// The OAuth endpoints answer these with RFC 6749's error names (``oauthError``); pages show
/// ``message``; the CLI maps ``category`` to its exit status.
public enum ConsentError: Error, Sendable, Hashable {
    /// An authorization request the server will not act on: a parameter missing, repeated or
    /// malformed (`state`, PKCE's `code_challenge`, `response_type`).
    case invalidRequest(String)
    /// No registered, unrevoked client has this id, or the redirect URI is not one of the
    /// client's: never redirected to (an open redirect is how codes get stolen).
    case unknownClient
    /// A code or refresh token that is unknown, expired, already used, issued to another client
    /// or redirect URI, or whose PKCE verifier does not match.
    case invalidGrant(String)
    /// The client did not authenticate: no, or a wrong, secret for a confidential client.
    case invalidClient
    /// A grant type the token endpoint does not offer.
    case unsupportedGrantType(String)
    /// A bearer access token that is missing, unknown or expired.
    case invalidToken
    /// Too many failed sign-ins from this address, or in total, recently; try again after this
    /// many seconds.
    case signInThrottled(retryAfter: Int)
    /// The password is not the owner's (or no owner password is set). Says nothing more.
    case wrongPassword
    /// A new owner password breaks a rule (length, characters).
    case unacceptablePassword(String)
    /// A form arrived without the token of the page that showed it.
    case forgedRequest
    /// A client registration that cannot be made: a malformed id, name or redirect URI.
    case invalidClientRegistration(String)
    /// A client with this id is already registered.
    case clientExists(String)

    /// Stable code.
    public var code: String {
        switch self {
        case .invalidRequest: "consent.invalidRequest"
        case .unknownClient: "consent.unknownClient"
        case .invalidGrant: "consent.invalidGrant"
        case .invalidClient: "consent.invalidClient"
        case .unsupportedGrantType: "consent.unsupportedGrantType"
        case .invalidToken: "consent.invalidToken"
        case .signInThrottled: "consent.signInThrottled"
        case .wrongPassword: "consent.wrongPassword"
        case .unacceptablePassword: "consent.unacceptablePassword"
        case .forgedRequest: "consent.forgedRequest"
        case .invalidClientRegistration: "consent.invalidClientRegistration"
        case .clientExists: "consent.clientExists"
        }
    }

    /// The error name RFC 6749 (§4.1.2.1, §5.2) and RFC 6750 (§3.1) give this refusal.
    public var oauthError: String {
        switch self {
        case .invalidRequest, .unknownClient, .invalidClientRegistration, .clientExists, .forgedRequest,
            .unacceptablePassword:
            "invalid_request"
        case .invalidGrant: "invalid_grant"
        case .invalidClient: "invalid_client"
        case .unsupportedGrantType: "unsupported_grant_type"
        case .invalidToken: "invalid_token"
        case .signInThrottled, .wrongPassword: "access_denied"
        }
    }
}

extension ConsentError: WalletError {
    public var message: String {
        switch self {
        case .invalidRequest(let why): "the authorization request is invalid: \(why)"
        case .unknownClient: "the client is not registered, or the redirect URI is not one of its registered ones"
        case .invalidGrant(let why): "the grant is invalid: \(why)"
        case .invalidClient: "the client did not authenticate"
        case .unsupportedGrantType(let type): "the grant type \(MessageText.quote(type)) is not supported"
        case .invalidToken: "the access token is missing, unknown or expired"
        case .signInThrottled(let seconds):
            "too many failed sign-ins; try again in \(max(1, (seconds + 59) / 60)) minute\(seconds > 60 ? "s" : "")"
        case .wrongPassword: "the password is not correct"
        case .unacceptablePassword(let why): "the password cannot be used: \(why)"
        case .forgedRequest: "the form is out of date or did not come from this site; reload the page and try again"
        case .invalidClientRegistration(let why): "the client cannot be registered: \(why)"
        case .clientExists(let id): "a client \(MessageText.quote(id)) is already registered"
        }
    }

    public var category: ErrorCategory {
        switch self {
        case .invalidRequest, .unknownClient, .invalidGrant, .unsupportedGrantType, .unacceptablePassword,
            .invalidClientRegistration:
            .invalidInput
        case .invalidClient, .invalidToken, .wrongPassword, .forgedRequest, .signInThrottled: .unauthorized
        case .clientExists: .conflict
        }
    }
}
