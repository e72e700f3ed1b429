import Foundation

/// Device registrations for order updates, in the store's database. A backend implements it; the
/// contract suite holds every backend to the same behaviour.
public protocol RegistrationRepository: Sendable {
    /// Registers the device for the order's updates, or updates its push token. A new
    /// registration that would pass a bound of `limits` throws
    /// ``OrderStoreError/registrationLimit(_:)`` and writes nothing.
    func register(
        _ registration: OrderRegistration, at time: Date, limits: RegistrationLimits
    ) async throws -> RegistrationResult

    /// Removes the device's registration for the order; returns whether there was one.
    func unregister(deviceIdentifier: String, order: FullyQualifiedOrderIdentifier) async throws -> Bool

    /// The device's registered orders of one type changed after `tag` (all of them when nil),
    /// with the tag to pass next time; nil when there are none (Apple's `204 No Content`).
    func registeredOrders(
        deviceIdentifier: String, orderTypeIdentifier: String, changedAfter tag: OrderChangeTag?
    ) async throws -> RegisteredOrderChanges?

    /// Every registration holding this push token is removed (APNs said the token is gone);
    /// returns how many there were.
    func removeRegistrations(pushToken: String) async throws -> Int

    /// The devices registered for the order's updates: how many, and up to `limit` of them, the
    /// most recently registered first (push tokens shortened to their last characters).
    func registeredDevices(for order: FullyQualifiedOrderIdentifier, limit: Int) async throws -> RegisteredDevices
}

extension RegistrationRepository {
    /// ``register(_:at:limits:)`` with the default ``RegistrationLimits``.
    public func register(_ registration: OrderRegistration, at time: Date) async throws -> RegistrationResult {
        try await register(registration, at: time, limits: .default)
    }
}

/// The pushes owed to devices. Rows are written by ``OrderRepository/save(_:at:)`` in the same
/// transaction as the version they announce, so a push is never lost after a commit nor sent for
/// a save that rolled back.
///
/// One push waits per device and order type: Wallet answers a push by asking which of the type's
/// orders changed, so a version saved while the device's push is still waiting is carried by that
/// push (counted in ``PendingPush/coalesced``) rather than queued behind it; one saved while the
/// push is being sent makes it due again once sent (``completePush(_:at:)``).
///
/// Delivery claims rows with a lease: a claimed row is invisible to other drainers until the
/// lease ends, so several service instances drain one outbox without sending a push twice while
/// each is alive; a drainer that dies leaves its rows to be claimed again after the lease.
public protocol PushOutbox: Sendable {
    /// Claims up to `limit` pushes due at `time` (oldest first) until `leaseEnd`.
    func claimPushes(dueAt time: Date, leaseEnd: Date, limit: Int) async throws -> [PendingPush]

    /// The push was delivered: the row is deleted — unless versions were coalesced into it after
    /// the claim (its count grew), which the device has not been told of: then it is due again at
    /// `time`, as a new push.
    func completePush(_ push: PendingPush, at time: Date) async throws

    /// The push failed for now: try again at `time`, counting the attempt.
    func retryPush(_ id: Int64, at time: Date, reason: String) async throws

    /// How many pushes are waiting (claimed or not), for metrics.
    func pendingPushCount() async throws -> Int

    /// The push failed for good: it leaves the outbox and joins the kept failures with `reason`
    /// (the newest ``PushOutboxRecords/keptFailures``), in one transaction.
    func failPush(_ push: PendingPush, reason: String, at time: Date) async throws

    /// Up to `limit` waiting pushes, the next due first.
    func waitingPushes(limit: Int) async throws -> [WaitingPush]

    /// Up to `limit` of the kept failures, the newest first.
    func failedPushes(limit: Int) async throws -> [FailedPush]
}
