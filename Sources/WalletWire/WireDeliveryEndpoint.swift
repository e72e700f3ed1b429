import FinanceData
import Foundation

/// A background-delivery endpoint as the data API and `orders finance deliveries` print it;
/// `secret` (and its Standard Webhooks form) only in the answer that created it.
public struct WireDeliveryEndpoint: Codable, Sendable, Hashable {
    public struct Delivered: Codable, Sendable, Hashable {
        public var deliveryID: UUID
        public var at: Date
        public var types: [BackgroundDataType]
    }

    public struct Failure: Codable, Sendable, Hashable {
        public var deliveryID: UUID
        public var at: Date
        public var reason: String
    }

    public struct Disabled: Codable, Sendable, Hashable {
        public var at: Date
        public var reason: String
    }

    public var id: UUID
    public var clientID: String
    public var url: String
    /// Each data type delivered, with its frequency.
    public var types: [String: UpdateFrequency]
    /// `active`, or `disabled` (the endpoint answered `410 Gone`; enabling it again resumes).
    public var state: String
    public var createdAt: Date
    @Nullable public var disabled: Disabled?
    @Nullable public var lastDelivery: Delivered?
    @Nullable public var lastFailure: Failure?
    public var pendingDeliveries: Int
    @Nullable public var secret: String?
    /// The same secret as Standard Webhooks libraries take it (`whsec_…`), with `secret`.
    @Nullable public var standardWebhooksSecret: String?

    public init(_ endpoint: DeliveryEndpoint, secret: String? = nil) {
        id = endpoint.id
        clientID = endpoint.client.rawValue
        url = endpoint.url.text
        types = Dictionary(uniqueKeysWithValues: endpoint.frequencies.map { ($0.key.rawValue, $0.value) })
        state = endpoint.disabled == nil ? "active" : "disabled"
        createdAt = endpoint.createdAt
        disabled = endpoint.disabled.map { Disabled(at: $0.at, reason: $0.reason) }
        lastDelivery = endpoint.lastDelivery.map { Delivered(deliveryID: $0.deliveryID, at: $0.at, types: $0.types) }
        lastFailure = endpoint.lastFailure.map { Failure(deliveryID: $0.deliveryID, at: $0.at, reason: $0.reason) }
        pendingDeliveries = endpoint.pendingDeliveries
        self.secret = secret
        standardWebhooksSecret = secret.map(DeliverySecret.standardWebhooksForm(of:))
    }
}
