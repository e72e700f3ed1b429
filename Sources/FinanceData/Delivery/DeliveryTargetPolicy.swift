/// Whether deliveries may go to a URL: asked when an endpoint is registered, and by the sender
/// again before every delivery (a name may resolve elsewhere by then).
///
/// `orders serve` uses `WalletOutbox.WebhookTargets`, which resolves the host and refuses loopback,
/// private, link-local and metadata addresses unless the operator allows them. The library's
/// default, ``HTTPSOnlyTargetPolicy``, checks the scheme alone: a program that registers endpoints
/// without sending decides its own policy.
public protocol DeliveryTargetPolicy: Sendable {
    /// - Throws: ``BackgroundDeliveryError/urlNotAllowed(_:)`` or
    ///   ``BackgroundDeliveryError/invalidURL(_:)`` saying why not.
    func check(_ url: WebhookURL) async throws(BackgroundDeliveryError)
}

/// Any well-formed `https` URL; `http` is refused.
public struct HTTPSOnlyTargetPolicy: DeliveryTargetPolicy {
    public init() {}

    public func check(_ url: WebhookURL) async throws(BackgroundDeliveryError) {
        guard url.isSecure else { throw .invalidURL("the scheme must be https") }
    }
}
