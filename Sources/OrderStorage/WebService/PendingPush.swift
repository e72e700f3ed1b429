import Foundation

/// A push the outbox owes a device: written in the transaction that replaced an order's version,
/// one per registration, and delivered (or dropped) by the drainer.
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

    public init(
        id: Int64, pushToken: String, orderTypeIdentifier: String, orderIdentifier: String, deviceIdentifier: String,
        enqueuedAt: Date, attempts: Int
    ) {
        self.id = id
        self.pushToken = pushToken
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.deviceIdentifier = deviceIdentifier
        self.enqueuedAt = enqueuedAt
        self.attempts = attempts
    }
}
