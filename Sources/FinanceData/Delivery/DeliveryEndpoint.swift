import Foundation
import WalletCore

/// Where and for what a client is woken (a registration of `enableBackgroundDelivery`): a URL
/// with its own signing secret, the data types with their frequencies, and how delivery has
/// gone so far.
public struct DeliveryEndpoint: Sendable, Hashable, Identifiable {
    /// A delivery that reached the endpoint (2xx).
    public struct Delivered: Sendable, Hashable {
        public var deliveryID: UUID
        public var at: Date
        public var types: [BackgroundDataType]

        public init(deliveryID: UUID, at: Date, types: [BackgroundDataType]) {
            self.deliveryID = deliveryID
            self.at = at
            self.types = types
        }
    }

    /// The last delivery that failed: refused with a 4xx, redirected, or given up after retries;
    /// its types go out again with the next change.
    public struct Failure: Sendable, Hashable {
        public var deliveryID: UUID
        public var at: Date
        public var reason: String

        public init(deliveryID: UUID, at: Date, reason: String) {
            self.deliveryID = deliveryID
            self.at = at
            self.reason = reason
        }
    }

    /// Why deliveries stopped: the endpoint answered `410 Gone`. Enabling it again resumes.
    public struct Disabled: Sendable, Hashable {
        public var at: Date
        public var reason: String

        public init(at: Date, reason: String) {
            self.at = at
            self.reason = reason
        }
    }

    public let id: UUID
    public var client: ClientIdentifier
    public var url: WebhookURL
    /// The data types delivered, each with its frequency.
    public var frequencies: [BackgroundDataType: UpdateFrequency]
    public var createdAt: Date
    public var disabled: Disabled?
    public var lastDelivery: Delivered?
    public var lastFailure: Failure?
    /// Deliveries decided and not yet acknowledged (being sent or waiting to be retried).
    public var pendingDeliveries: Int

    public init(
        id: UUID, client: ClientIdentifier, url: WebhookURL, frequencies: [BackgroundDataType: UpdateFrequency],
        createdAt: Date, disabled: Disabled? = nil, lastDelivery: Delivered? = nil, lastFailure: Failure? = nil,
        pendingDeliveries: Int = 0
    ) {
        self.id = id
        self.client = client
        self.url = url
        self.frequencies = frequencies
        self.createdAt = createdAt
        self.disabled = disabled
        self.lastDelivery = lastDelivery
        self.lastFailure = lastFailure
        self.pendingDeliveries = pendingDeliveries
    }

    /// The data types delivered, in FinanceKit's order.
    public var types: [BackgroundDataType] { frequencies.keys.sorted() }
}

/// An endpoint as ``BackgroundDeliveryRepository/enable(_:frequency:url:for:secret:maximumEndpoints:at:)``
/// left it, with its signing secret when this call created it (shown once).
public struct EnabledDelivery: Sendable, Hashable {
    public var endpoint: DeliveryEndpoint
    /// The new endpoint's secret; nil when the endpoint existed (its secret is unchanged).
    public var secret: String?

    public init(endpoint: DeliveryEndpoint, secret: String?) {
        self.endpoint = endpoint
        self.secret = secret
    }
}
