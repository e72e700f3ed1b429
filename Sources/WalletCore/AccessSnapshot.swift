import Foundation

/// Who a data client's call serves and what it may see, read once for the call: the access
/// token's client and expiry, the client's ``ClientAccess``, and whether financial data is
/// restricted — all from one statement, one snapshot of the store. Every check of that call
/// uses it (``AccessControl/requireAuthorized(_:for:)``); a long-lived response (a history stream) reads a new one
/// on every poll, so a revocation or restriction ends it at the next.
public struct AccessSnapshot: Hashable, Sendable {
    /// The client the access token was issued to.
    public var client: ClientIdentifier
    /// When the access token expires.
    public var expiresAt: Date
    /// The client's authorization, shared accounts and order types.
    public var access: ClientAccess
    /// Since when financial data is restricted; nil when it is not.
    public var restrictedSince: Date?

    public init(client: ClientIdentifier, expiresAt: Date, access: ClientAccess, restrictedSince: Date?) {
        self.client = client
        self.expiresAt = expiresAt
        self.access = access
        self.restrictedSince = restrictedSince
    }
}
