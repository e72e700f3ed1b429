import Foundation

/// What one service instance found when it loaded a signing identity (issue 53: rotation without
/// an outage): each instance reports, for the active and the staged identity of each order type,
/// whether it could load the key and sign a probe with it, so that a staged identity is activated
/// only once every live instance can sign with it.
public struct SigningIdentityReport: Sendable, Hashable {
    /// The instance: its host name, process id and a random suffix (``WalletStore/instanceName``).
    public var instance: String
    public var orderTypeIdentifier: String
    /// The identity's ``StoredSigningIdentity/revision``.
    public var revision: String
    public var loaded: Bool
    /// Why it could not, as the error's code and message; nil when it loaded.
    public var reason: String?
    public var reportedAt: Date

    public init(
        instance: String, orderTypeIdentifier: String, revision: String, loaded: Bool, reason: String?, reportedAt: Date
    ) {
        self.instance = instance
        self.orderTypeIdentifier = orderTypeIdentifier
        self.revision = revision
        self.loaded = loaded
        self.reason = reason
        self.reportedAt = reportedAt
    }
}
