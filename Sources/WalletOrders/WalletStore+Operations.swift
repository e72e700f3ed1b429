import OrderStorage

/// What an operator's checks and the console read: how much work waits in the outboxes, which
/// pushes wait or failed, which devices follow an order. Counting the push outbox is also the
/// service's health check — the store answers a read — and is not guarded; the lists are, as
/// every other read of orders: orders available here and not restricted.
extension WalletStore {
    /// Pushes waiting to be sent (or retried).
    public func pendingPushCount() async throws -> Int {
        try await backend.pushOutbox.pendingPushCount()
    }

    /// Background deliveries waiting to be sent (or retried).
    public func pendingDeliveryCount() async throws -> Int {
        try await backend.backgroundDelivery.pendingDeliveryCount()
    }

    /// Up to `limit` waiting pushes, the next due first.
    public func waitingPushes(limit: Int) async throws -> [WaitingPush] {
        try await control.checkUsable(.orders, for: "waitingPushes")
        return try await backend.pushOutbox.waitingPushes(limit: limit)
    }

    /// Up to `limit` of the pushes that failed for good, the newest first.
    public func failedPushes(limit: Int) async throws -> [FailedPush] {
        try await control.checkUsable(.orders, for: "failedPushes")
        return try await backend.pushOutbox.failedPushes(limit: limit)
    }

    /// The devices registered for an order's updates: how many, and up to `limit` of them, the
    /// most recently registered first (push tokens shortened to their last characters).
    public func registeredDevices(for order: FullyQualifiedOrderIdentifier, limit: Int) async throws -> RegisteredDevices {
        try await control.checkUsable(.orders, for: "registeredDevices")
        return try await backend.registrations.registeredDevices(for: order, limit: limit)
    }
}
