import Foundation

/// A provider's webhook configured for the order types it may change (`orders tracking add`):
/// where the provider posts (`/api/v1/tracking/{provider}/{identifier}`) and the secrets its
/// bodies are signed with — one, or two while the merchant rotates.
public struct TrackingEndpoint: Sendable, Hashable {
    /// The most secrets an endpoint holds at once: the new one and the one being retired.
    public static let maximumSecrets = 2

    /// The endpoint's public name in its URL (`trk_` and 26 base-32 characters); not a secret.
    public var identifier: String
    /// The provider's name (`aftership`, `easypost`).
    public var provider: String
    /// The order types its events may change.
    public var orderTypeIdentifiers: [String]
    /// The shared secrets, newest first. Never printed.
    public var secrets: [String]
    public var createdAt: Date

    public init(identifier: String, provider: String, orderTypeIdentifiers: [String], secrets: [String], createdAt: Date) {
        self.identifier = identifier
        self.provider = provider
        self.orderTypeIdentifiers = orderTypeIdentifiers
        self.secrets = secrets
        self.createdAt = createdAt
    }

    /// The endpoint name the generic events of a merchant API client are recorded under: they
    /// come through one route, authenticated by the client's keys, not through a configured
    /// endpoint.
    public static func generic(client: String) -> String { genericPrefix + client }

    /// The client a ``generic(client:)`` endpoint name stands for; nil for a configured endpoint.
    public static func genericClient(of endpoint: String) -> String? {
        endpoint.hasPrefix(genericPrefix) ? String(endpoint.dropFirst(genericPrefix.count)) : nil
    }

    private static let genericPrefix = "generic:"
}
