/// What an operator's checks read: how much work waits in the outboxes. Counting the push
/// outbox is also the service's health check — the store answers a read.
extension WalletStore {
    /// Pushes waiting to be sent (or retried).
    public func pendingPushCount() async throws -> Int {
        try await backend.pushOutbox.pendingPushCount()
    }

    /// Background deliveries waiting to be sent (or retried).
    public func pendingDeliveryCount() async throws -> Int {
        try await backend.backgroundDelivery.pendingDeliveryCount()
    }
}
