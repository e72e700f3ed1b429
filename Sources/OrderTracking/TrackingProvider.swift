/// Where a shipment event comes from: a tracking service's webhook in its own format, or the
/// service's generic event (docs/tracking.md).
public enum TrackingProvider: String, Sendable, Hashable, CaseIterable, Codable {
    /// AfterShip's Tracking webhooks (`tracking_update`, `edd_revise`), signed with
    /// `aftership-hmac-sha256`.
    case afterShip = "aftership"
    /// EasyPost's `tracker.updated` Events, signed with `X-Hmac-Signature`.
    case easyPost = "easypost"
    /// The generic event, for every other source; authenticated by a merchant API key.
    case generic

    /// Whether the provider signs its bodies with a shared secret (configured per merchant with
    /// `orders tracking add`); the generic event is authenticated by an API key instead.
    public var signsBodies: Bool { self != .generic }
}
