import Foundation
import OrderPackage
import OrderStorage
import OrderTracking
import Synchronization
import WalletCore
import WalletPrimitives

/// How an event becomes versions (docs/tracking.md, "Applying an event"): recorded once per
/// endpoint and event id; the orders naming its parcel found in the store's index, within the
/// order types the endpoint (or the merchant API client) may change; each order's next version
/// derived by ``OrderTracking/TrackingUpdate`` from its current order.json and authored — signed,
/// saved with the event and pushed in one unit of work (``OrderAuthoring``).
struct TrackingIngestion: Sendable {
    let wallet: WalletStore
    let webService: WebServiceURLPolicy

    /// Where an event may apply: the endpoint it came through, the order types it may change
    /// (nil: any the client is entitled to), and the merchant API client (nil: the operator's
    /// configuration).
    struct Scope: Sendable {
        var endpoint: String
        var orderTypeIdentifiers: Set<String>?
        var client: ClientIdentifier?
    }

    func receive(_ event: TrackingEvent, in scope: Scope) async throws -> TrackingResult {
        try wallet.control.checkAvailable(.orders, for: "receiveTrackingEvent")
        let record = TrackingEventRecord(
            endpoint: scope.endpoint, eventID: event.eventID, provider: event.provider.rawValue,
            trackingKey: event.key.normalized, orderTypeIdentifier: event.orderTypeIdentifier, occurredAt: event.occurredAt,
            receivedAt: wallet.configuration.clock(), event: try JSONEncoder().encode(event), outcome: .received)
        // A second delivery changes nothing — unless the first was left half done (its service
        // stopped): then this one finishes it.
        let kept = try await wallet.backend.tracking.record(record, keep: TrackingLimits.eventsKeptPerEndpoint)
        if let kept, kept.outcome != .received {
            return TrackingResult(provider: event.provider.rawValue, eventID: event.eventID, outcome: .duplicate, versions: [])
        }
        return try await apply(event, receivedAt: kept?.receivedAt ?? record.receivedAt, in: scope)
    }

    /// Applies a kept event again: unmatched until now, or left by a stopped service.
    func apply(_ record: TrackingEventRecord, in scope: Scope) async throws -> TrackingResult {
        let event = try JSONDecoder().decode(TrackingEvent.self, from: record.event)
        return try await apply(event, receivedAt: record.receivedAt, in: scope)
    }

    /// - Parameter receivedAt: when the event first arrived (what the history shows).
    private func apply(_ event: TrackingEvent, receivedAt: Date, in scope: Scope) async throws -> TrackingResult {
        let tracking = wallet.backend.tracking
        let key = event.key.normalized
        let checkedThrough = try await tracking.changeSequence()
        let orders = try await tracking.orders(trackingKey: key).filter { identifier in
            (scope.orderTypeIdentifiers?.contains(identifier.orderTypeIdentifier) ?? true)
                && (event.orderTypeIdentifier.map { $0 == identifier.orderTypeIdentifier } ?? true)
        }
        let applied = AppliedTrackingEvent(
            endpoint: scope.endpoint, eventID: event.eventID, provider: event.provider.rawValue, trackingKey: key,
            occurredAt: event.occurredAt, receivedAt: receivedAt)
        let authoring = OrderAuthoring(wallet: wallet, webService: webService, client: scope.client)
        var versions: [TrackingResult.Version] = []
        var outcomes: [TrackingUpdate.Outcome] = []
        var appliedBefore = 0
        for identifier in orders {
            let decided = Mutex<TrackingUpdate.Outcome?>(nil)
            do {
                let authored = try await authoring.author(identifier, applying: applied) { document in
                    guard case .object(let object) = document else { return nil }
                    let outcome = TrackingUpdate.outcome(
                        of: event, on: object, lastAppliedAt: try await tracking.lastAppliedAt(identifier, trackingKey: key))
                    decided.withLock { $0 = outcome }
                    guard case .apply(let patch, _) = outcome else { return nil }
                    return patch
                }
                if let authored {
                    versions.append(
                        TrackingResult.Version(
                            identifier: identifier, updatedAt: authored.updatedAt, archiveSHA256: authored.archiveSHA256))
                } else if let outcome = decided.withLock({ $0 }) {
                    outcomes.append(outcome)
                }
            } catch OrderStoreError.eventAlreadyApplied {
                // This event's version of the order is there already: made by a delivery that
                // stopped before it finished, or by one running at the same time.
                appliedBefore += 1
            } catch FinanceAccessError.notEntitled {
                continue  // another merchant's order naming the same number
            } catch AuthoringError.orderNotFound {
                continue  // removed since the index was read
            }
        }
        let outcome = Self.outcome(versions: versions.count + appliedBefore, outcomes)
        try await tracking.finish(
            endpoint: scope.endpoint, eventID: event.eventID, outcome: outcome, versions: versions.count,
            checkedThrough: checkedThrough)
        return TrackingResult(provider: event.provider.rawValue, eventID: event.eventID, outcome: outcome, versions: versions)
    }

    /// One word for what the event did to all the orders naming its parcel: `versions` counts
    /// those it made now or before.
    static func outcome(versions: Int, _ outcomes: [TrackingUpdate.Outcome]) -> TrackingOutcome {
        if versions > 0 { return .applied }
        if outcomes.contains(.unchanged) { return .unchanged }
        if outcomes.contains(.older) { return .older }
        if outcomes.contains(.orderClosed) { return .orderClosed }
        return .unmatched
    }
}
