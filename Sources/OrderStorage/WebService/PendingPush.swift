import Foundation

/// A push the outbox owes a device: written in the transaction that replaced an order's version,
/// one per device and order type (later versions coalesce into it), and delivered (or dropped) by
/// the drainer.
public struct PendingPush: Sendable, Hashable, Identifiable {
    public var id: Int64
    public var pushToken: String
    /// The APNs topic: the order type identifier.
    public var orderTypeIdentifier: String
    public var orderIdentifier: String
    public var deviceIdentifier: String
    public var enqueuedAt: Date
    /// Delivery attempts made before this claim.
    public var attempts: Int
    /// Versions saved after the first while the push waited, which it announces as well.
    public var coalesced: Int

    public init(
        id: Int64, pushToken: String, orderTypeIdentifier: String, orderIdentifier: String, deviceIdentifier: String,
        enqueuedAt: Date, attempts: Int, coalesced: Int = 0
    ) {
        self.id = id
        self.pushToken = pushToken
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.deviceIdentifier = deviceIdentifier
        self.enqueuedAt = enqueuedAt
        self.attempts = attempts
        self.coalesced = coalesced
    }
}
