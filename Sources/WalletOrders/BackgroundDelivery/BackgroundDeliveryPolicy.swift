/// How a deployment treats clients' background-delivery endpoints.
public struct BackgroundDeliveryPolicy: Sendable {
    /// Whether a URL may be registered (asked again by the sender before each delivery).
    /// `orders serve` uses `WalletOutbox.WebhookTargets`: the host resolved, loopback, private,
    /// link-local and metadata addresses refused unless the operator allows them.
    public var targets: any DeliveryTargetPolicy
    /// The most endpoints one client may register (5 by default).
    public var maximumEndpointsPerClient: Int

    public init(targets: any DeliveryTargetPolicy = HTTPSOnlyTargetPolicy(), maximumEndpointsPerClient: Int = 5) {
        self.targets = targets
        self.maximumEndpointsPerClient = maximumEndpointsPerClient
    }
}
