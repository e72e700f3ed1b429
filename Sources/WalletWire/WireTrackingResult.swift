import OrderStorage
import WalletPrimitives

/// What a tracking endpoint answers and `orders tracking replay --json` prints.
public struct WireTrackingResult: Codable, Sendable, Hashable {
    public struct Version: Codable, Sendable, Hashable {
        public var orderTypeIdentifier: String
        public var orderIdentifier: String
        public var updatedAt: String
    }

    public var provider: String
    @Nullable public var eventID: String?
    public var outcome: String
    public var versions: [Version]

    public init(_ result: TrackingResult) {
        provider = result.provider
        eventID = result.eventID
        outcome = result.outcome.rawValue
        versions = result.versions.map {
            Version(
                orderTypeIdentifier: $0.identifier.orderTypeIdentifier, orderIdentifier: $0.identifier.orderIdentifier,
                updatedAt: $0.updatedAt.text)
        }
    }
}

/// A tracking endpoint as `orders tracking add|list --json` prints it: never its secrets.
public struct WireTrackingEndpoint: Codable, Sendable, Hashable {
    public var endpoint: String
    public var provider: String
    public var orderTypeIdentifiers: [String]
    public var secrets: Int
    public var url: String
    public var createdAt: String

    public init(_ endpoint: TrackingEndpoint, url: String) {
        self.endpoint = endpoint.identifier
        provider = endpoint.provider
        orderTypeIdentifiers = endpoint.orderTypeIdentifiers
        secrets = endpoint.secrets.count
        self.url = url
        createdAt = RFC3339Timestamp(endpoint.createdAt).text
    }
}

/// A received tracking event as `orders tracking events --json` prints it.
public struct WireTrackingEvent: Codable, Sendable, Hashable {
    public var endpoint: String
    public var provider: String
    public var eventID: String
    public var trackingKey: String
    @Nullable public var orderTypeIdentifier: String?
    public var occurredAt: String
    public var receivedAt: String
    public var outcome: String
    public var versions: Int

    public init(_ event: TrackingEventRecord) {
        endpoint = event.endpoint
        provider = event.provider
        eventID = event.eventID
        trackingKey = event.trackingKey
        orderTypeIdentifier = event.orderTypeIdentifier
        occurredAt = RFC3339Timestamp(event.occurredAt).text
        receivedAt = RFC3339Timestamp(event.receivedAt).text
        outcome = event.outcome.rawValue
        versions = event.versions
    }
}
