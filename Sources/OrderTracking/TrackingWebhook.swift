import Foundation

/// A tracking endpoint's body read as the provider sent it: its signature checked against the
/// endpoint's secrets, then the body parsed, then its signed timestamp held to the provider's
/// rule — in that order, so that nothing of an unsigned body is read.
///
/// ```swift
/// let event = try TrackingWebhook.event(
///     .afterShip, body: body, signature: request.headers["aftership-hmac-sha256"],
///     secrets: endpoint.secrets, now: .now)
/// ```
public enum TrackingWebhook {
    /// The event in `body`.
    ///
    /// - Parameters:
    ///   - signature: the value of the provider's signature header (``TrackingSignature/header``);
    ///     ignored for ``TrackingProvider/generic``, which the merchant API key authenticates.
    ///   - secrets: the endpoint's current secrets (one, or two while rotating).
    /// - Throws: ``TrackingError``: `unsigned`, `badSignature` and `stale` (401 at the HTTP edge)
    ///   before anything else; then `bodyTooLarge`, `invalidBody` naming the JSON path, or
    ///   `unsupportedEvent`.
    public static func event(
        _ provider: TrackingProvider, body: Data, signature: String?, secrets: [String], now: Date
    ) throws(TrackingError) -> TrackingEvent {
        if let scheme = TrackingSignature(provider: provider) {
            try scheme.check(signature, body: body, secrets: secrets)
        }
        let event = try self.event(provider, body: body)
        if provider == .afterShip {
            // AfterShip's `ts` is signed with the body: a body replayed later is refused.
            let age = Duration.seconds(abs(now.timeIntervalSince(event.occurredAt)).rounded(.down))
            guard age <= TrackingLimits.maximumSignatureAge else {
                throw .stale(path: "ts", age: age, limit: TrackingLimits.maximumSignatureAge)
            }
        }
        return event
    }

    /// The event in `body`, read without a signature or its age: for a body the operator saved
    /// and applies again (`orders tracking replay`), never for one from the network.
    ///
    /// - Throws: ``TrackingError``: `bodyTooLarge`, `invalidBody` naming the JSON path, or
    ///   `unsupportedEvent`.
    public static func event(_ provider: TrackingProvider, body: Data) throws(TrackingError) -> TrackingEvent {
        let event: TrackingEvent
        switch provider {
        case .afterShip:
            event = try AfterShipWebhook.event(from: body)
        case .easyPost:
            // EasyPost signs no timestamp (its `X-Hmac-Signature` covers the body only): a
            // replayed body is an event already applied, which changes nothing.
            event = try EasyPostEvent.event(from: body)
        case .generic:
            event = try GenericTrackingEvent.event(from: body)
        }
        guard !event.key.isEmpty else {
            throw .invalidBody(path: provider.trackingNumberPath, reason: "the tracking number has no letter or digit")
        }
        return event
    }
}

extension TrackingProvider {
    /// Where the provider's body holds the tracking number.
    var trackingNumberPath: String {
        switch self {
        case .afterShip: "msg.tracking_number"
        case .easyPost: "result.tracking_code"
        case .generic: "trackingNumber"
        }
    }
}
