import Foundation
import WalletCore

/// Background delivery's storage: clients' endpoints, the decisions to deliver, and the outbox
/// they are sent from. Every write is one transaction; backends implement it once
/// (`WalletStorage.SQLBackgroundDeliveryRepository`) and pass the contract suite.
public protocol BackgroundDeliveryRepository: Sendable {
    // MARK: Endpoints

    /// Enables `types` at `frequency` on the client's endpoint for `url`, creating it with
    /// `secret` when the client has none for that URL (refused past `maximumEndpoints`). An
    /// existing endpoint keeps its secret and its other types; a disabled one is enabled again.
    /// A type newly enabled hears of changes from now on.
    ///
    /// - Throws: ``BackgroundDeliveryError/tooManyEndpoints(limit:)``; `StorageError`.
    func enable(
        _ types: Set<BackgroundDataType>, frequency: UpdateFrequency, url: WebhookURL, for client: ClientIdentifier,
        secret: String, maximumEndpoints: Int, at time: Date
    ) async throws -> EnabledDelivery

    /// Stops delivering `types` on every endpoint of the client; an endpoint left with no type
    /// is removed with its pending deliveries.
    func disable(_ types: Set<BackgroundDataType>, for client: ClientIdentifier) async throws

    /// Removes every endpoint of the client and its pending deliveries.
    func disableAll(for client: ClientIdentifier) async throws

    /// The client's endpoints, oldest first; every client's when `client` is nil.
    func endpoints(for client: ClientIdentifier?) async throws -> [DeliveryEndpoint]

    func endpoint(_ id: UUID) async throws -> DeliveryEndpoint?

    // MARK: Deciding

    /// Reads the change log past where each endpoint's types have read it (at most `scanLimit`
    /// records per call), marks the types whose client-visible data changed
    /// (``DeliveryPlanner/changedTypes(in:among:visibleTo:dates:)``), and — unless financial
    /// data is restricted — writes a delivery for each enabled endpoint with types due and none
    /// pending (``DeliveryPlanner/typesToDeliver(_:at:)``). One transaction; two instances
    /// deciding at once take turns, so a change is decided once.
    func planDeliveries(at time: Date, scanLimit: Int) async throws -> DeliveryPlanReport

    // MARK: The outbox

    /// Claims up to `limit` deliveries due at `time` until `leaseEnd`; several senders at once
    /// never claim the same one.
    func claimDeliveries(dueAt time: Date, leaseEnd: Date, limit: Int) async throws -> [PendingDelivery]

    /// The endpoint acknowledged it (2xx): recorded as the endpoint's last delivery; gone from
    /// the outbox.
    func recordDelivered(_ deliveryID: UUID, at time: Date) async throws

    /// It failed for now (5xx, timeout, connection): try again at `next`, counting the attempt.
    func recordRetry(_ deliveryID: UUID, next: Date, reason: String, at time: Date) async throws

    /// It failed for good (4xx, a redirect, retries given up): recorded as the endpoint's last
    /// failure, its types owed to the next delivery; gone from the outbox.
    func recordFailed(_ deliveryID: UUID, reason: String, at time: Date) async throws

    /// The endpoint answered `410 Gone`: it is disabled and its pending deliveries removed.
    func recordGone(_ deliveryID: UUID, reason: String, at time: Date) async throws

    /// Whether a claimed delivery is still to be sent: revoking its client, disabling its types or
    /// a `410` on its endpoint removes it from the outbox (checked just before sending).
    func isPending(_ deliveryID: UUID) async throws -> Bool

    /// Not sent now for a reason that is not the endpoint's (financial data restricted): due
    /// again at `time`, no attempt counted.
    func postpone(_ deliveryID: UUID, until time: Date) async throws

    /// Deliveries decided and not yet acknowledged, for metrics.
    func pendingDeliveryCount() async throws -> Int
}

/// What one ``BackgroundDeliveryRepository/planDeliveries(at:scanLimit:)`` did.
public struct DeliveryPlanReport: Sendable, Hashable {
    /// Change-log records read.
    public var scanned: Int
    /// Deliveries written to the outbox.
    public var planned: Int
    /// Whether records remain past `scanLimit`: call again at once.
    public var moreToScan: Bool
    /// Financial data is restricted: types were marked, nothing planned.
    public var restricted: Bool

    public init(scanned: Int = 0, planned: Int = 0, moreToScan: Bool = false, restricted: Bool = false) {
        self.scanned = scanned
        self.planned = planned
        self.moreToScan = moreToScan
        self.restricted = restricted
    }
}
