import Foundation
import WalletCore

/// An authorization code as the store keeps it: single-use, short-lived, bound to the client, the
/// redirect URI and the PKCE challenge of the request it answers.
///
/// Two purposes share it: the consent sheet's code, exchanged for tokens, and the transaction
/// picker's, exchanged once for the chosen transactions (``selection``, removed when the code is
/// redeemed or expires — nothing of a pick outlives it).
public struct IssuedCode: Sendable, Hashable {
    public enum Purpose: String, Sendable, Hashable, CaseIterable {
        case authorization
        case pick
    }

    /// SHA-256 of the code.
    public var digest: String
    public var purpose: Purpose
    public var client: ClientIdentifier
    public var redirectURI: String
    public var codeChallenge: String
    /// The tokens issued from this code carry it, so a replayed code can take them back
    /// (RFC 6749 §4.1.2).
    public var family: String
    /// The transactions the person picked (``Purpose/pick``).
    public var selection: [UUID]
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        digest: String, purpose: Purpose, client: ClientIdentifier, redirectURI: String, codeChallenge: String,
        family: String, selection: [UUID] = [], createdAt: Date, expiresAt: Date
    ) {
        self.digest = digest
        self.purpose = purpose
        self.client = client
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.family = family
        self.selection = selection
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// A code as its redemption found it.
public struct RedeemedCode: Sendable, Hashable {
    /// The code as issued (with its selection, which the store no longer holds).
    public var code: IssuedCode
    /// It had been redeemed before: a replay.
    public var wasUsed: Bool

    public init(code: IssuedCode, wasUsed: Bool) {
        self.code = code
        self.wasUsed = wasUsed
    }
}
