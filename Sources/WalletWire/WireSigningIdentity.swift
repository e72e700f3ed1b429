import Foundation
import OrderStorage

/// A signing identity as `orders signing list --json` and `add --json` print it: the certificate's
/// facts and where the key is, never a secret.
public struct WireSigningIdentity: Codable, Sendable, Hashable {
    public var orderTypeIdentifier: String
    public var teamIdentifier: String
    public var certificateSHA256: String
    public var notAfter: Date
    public var addedAt: Date
    /// `file /etc/orders/shop.key, passphrase from $SHOP_KEY_PASSPHRASE` or a PKCS#11 URI.
    public var key: String
    /// Set by `add`: whether the type's previous identity (active, or staged) was replaced.
    @Nullable public var replacedAnother: Bool?
    /// Set by `add`: whether it was staged beside the active identity.
    @Nullable public var staged: Bool?

    public init(_ identity: StoredSigningIdentity, replacedAnother: Bool? = nil, staged: Bool? = nil) {
        orderTypeIdentifier = identity.orderTypeIdentifier
        teamIdentifier = identity.teamIdentifier
        certificateSHA256 = identity.certificateSHA256
        notAfter = identity.notAfter
        addedAt = identity.addedAt
        key = identity.key.summary
        self.replacedAnother = replacedAnother
        self.staged = staged
    }
}
