import Foundation
import WalletCore

/// A delivery decided and claimed for sending: where, signed with what, and what it says.
public struct PendingDelivery: Sendable, Hashable {
    /// Receivers drop a delivery whose id they have seen: a crash between sending and
    /// recording sends it again with the same id.
    public var deliveryID: UUID
    public var endpointID: UUID
    public var client: ClientIdentifier
    public var url: WebhookURL
    /// The endpoint's signing secret.
    public var secret: String
    public var types: [BackgroundDataType]
    /// When the delivery was decided.
    public var occurredAt: Date
    /// Attempts made before this one.
    public var attempts: Int

    public init(
        deliveryID: UUID, endpointID: UUID, client: ClientIdentifier, url: WebhookURL, secret: String,
        types: [BackgroundDataType], occurredAt: Date, attempts: Int
    ) {
        self.deliveryID = deliveryID
        self.endpointID = endpointID
        self.client = client
        self.url = url
        self.secret = secret
        self.types = types
        self.occurredAt = occurredAt
        self.attempts = attempts
    }
}

extension PendingDelivery: CustomStringConvertible {
    /// Never the secret.
    public var description: String {
        "PendingDelivery(\(deliveryID.uuidString), endpoint \(endpointID.uuidString), \(types.map(\.rawValue)), attempt \(attempts + 1))"
    }
}
