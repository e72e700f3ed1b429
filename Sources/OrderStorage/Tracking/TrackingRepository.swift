import Foundation
import WalletCore

/// Tracking endpoints, the events they received and which versions those made; the orders are
/// found through the tracking-number index every save keeps (``OrderCandidate/trackingKeys``).
/// Written once for every SQL backend (`WalletStorage`'s `SQLTrackingRepository`).
public protocol TrackingRepository: Sendable {
    /// Adds `endpoint`; its identifier is new.
    func add(_ endpoint: TrackingEndpoint) async throws(StorageError)
    func endpoint(identifier: String) async throws(StorageError) -> TrackingEndpoint?
    /// Every endpoint, oldest first.
    func endpoints() async throws(StorageError) -> [TrackingEndpoint]
    /// Replaces the endpoint's secrets; returns whether it exists.
    func setSecrets(_ secrets: [String], of identifier: String) async throws(StorageError) -> Bool
    /// Removes the endpoint and the events it received; returns whether it existed.
    func remove(endpoint identifier: String) async throws(StorageError) -> Bool

    /// Records `event` (outcome ``TrackingOutcome/received``) unless its endpoint already has one
    /// with its id: then that one is returned and nothing written. Keeps at most `keep` events
    /// per endpoint, dropping the oldest received.
    func record(_ event: TrackingEventRecord, keep: Int) async throws(StorageError) -> TrackingEventRecord?
    /// Sets what the event did, having looked at the index as it was through the change number
    /// `checkedThrough` (``changeSequence()`` read before): an unmatched event is looked at again
    /// once an order naming its parcel is saved after that.
    func finish(
        endpoint: String, eventID: String, outcome: TrackingOutcome, versions: Int, checkedThrough: Int64
    ) async throws(StorageError)
    /// Leaves a ``TrackingOutcome/received`` event for a later sweep: applying it failed at `time`.
    func postpone(endpoint: String, eventID: String, at time: Date) async throws(StorageError)
    /// The last change number handed to a version (the orders' change tags).
    func changeSequence() async throws(StorageError) -> Int64

    /// The orders whose current version names the parcel `trackingKey`.
    func orders(trackingKey: String) async throws(StorageError) -> [FullyQualifiedOrderIdentifier]
    /// When the latest event applied to the parcel `trackingKey` of `identifier` occurred.
    func lastAppliedAt(
        _ identifier: FullyQualifiedOrderIdentifier, trackingKey: String
    ) async throws(StorageError)
        -> Date?
    /// The events that made versions of `identifier`, oldest first.
    func appliedEvents(of identifier: FullyQualifiedOrderIdentifier) async throws(StorageError) -> [AppliedTrackingEvent]

    /// Unmatched events whose parcel an order saved since they were looked at names, and events
    /// left ``TrackingOutcome/received`` (their service stopped, or applying them failed) since
    /// before `leftBefore`; oldest first, at most `limit`.
    func eventsToApply(leftBefore: Date, limit: Int) async throws(StorageError) -> [TrackingEventRecord]
    /// The latest events for the parcels `trackingKeys` (an order's), newest first.
    func events(trackingKeys: [String], limit: Int) async throws(StorageError) -> [TrackingEventRecord]
    /// The latest events, newest first; only unmatched ones when `unmatched`.
    func events(unmatched: Bool, limit: Int) async throws(StorageError) -> [TrackingEventRecord]
    /// Removes unmatched events received before `unmatchedBefore` and any received before
    /// `before`; returns how many.
    func expire(unmatchedBefore: Date, before: Date) async throws(StorageError) -> Int
}
