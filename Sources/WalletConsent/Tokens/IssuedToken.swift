import Foundation
import WalletCore

/// An access or refresh token as the store keeps it (its SHA-256 only).
///
/// Tokens issued from one code form a family: rotating a refresh token keeps the family, and a
/// refresh token presented twice — the sign that one copy was stolen — ends the whole family.
public struct IssuedToken: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case access
        case refresh
    }

    public var digest: String
    public var kind: Kind
    public var client: ClientIdentifier
    public var family: String
    public var createdAt: Date
    public var expiresAt: Date

    public init(digest: String, kind: Kind, client: ClientIdentifier, family: String, createdAt: Date, expiresAt: Date) {
        self.digest = digest
        self.kind = kind
        self.client = client
        self.family = family
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// What presenting a refresh token did.
public enum RefreshOutcome: Sendable, Hashable {
    /// It was valid: it is now used, and the replacements were stored in its family.
    case rotated
    /// It had been used before, or was presented by another client than its own: one of its
    /// holders is not its client, so its whole family was revoked.
    case revoked
    /// Unknown or expired: nothing changed.
    case invalid
}

/// The tokens a client receives from the token endpoint (RFC 6749 §5.1).
public struct TokenResponse: Sendable, Hashable, Codable {
    public var accessToken: String
    public var tokenType: String
    /// Seconds.
    public var expiresIn: Int
    public var refreshToken: String

    public init(accessToken: String, expiresIn: Int, refreshToken: String) {
        self.accessToken = accessToken
        self.tokenType = "Bearer"
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
    }
}
