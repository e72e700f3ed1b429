import Foundation

/// A tracking event as the store keeps it: what arrived, from where, and what it did. One per
/// endpoint and event id — a second delivery finds it (docs/tracking.md, "Kept events").
public struct TrackingEventRecord: Sendable, Hashable {
    /// The endpoint it came through (``TrackingEndpoint/identifier``, or ``TrackingEndpoint/generic(client:)``).
    public var endpoint: String
    /// The provider's identifier of the event.
    public var eventID: String
    public var provider: String
    /// The parcel's ``OrderPackage/TrackingKey``, normalized.
    public var trackingKey: String
    /// The one order type the event may change, when it names one (the generic event).
    public var orderTypeIdentifier: String?
    public var occurredAt: Date
    public var receivedAt: Date
    /// The event as the service read it (JSON), applied again from here when it was unmatched.
    public var event: Data
    public var outcome: TrackingOutcome
    /// How many versions it made (one per order it changed).
    public var versions: Int

    public init(
        endpoint: String, eventID: String, provider: String, trackingKey: String, orderTypeIdentifier: String?,
        occurredAt: Date, receivedAt: Date, event: Data, outcome: TrackingOutcome, versions: Int = 0
    ) {
        self.endpoint = endpoint
        self.eventID = eventID
        self.provider = provider
        self.trackingKey = trackingKey
        self.orderTypeIdentifier = orderTypeIdentifier
        self.occurredAt = occurredAt
        self.receivedAt = receivedAt
        self.event = event
        self.outcome = outcome
        self.versions = versions
    }
}

/// What a tracking event did: the word the endpoint answers with, the console shows and the
/// metrics count.
public enum TrackingOutcome: String, Sendable, Hashable, CaseIterable {
    /// Recorded, not yet applied (the service stopped before it finished; the next delivery or
    /// the sweep applies it).
    case received
    /// It made one version of each order it changed.
    case applied
    /// The orders naming the parcel already said what it says.
    case unchanged
    /// It occurred before the last event applied to the parcel.
    case older
    /// No order names the parcel yet: kept, and applied when one is saved.
    case unmatched
    /// Every order naming the parcel is cancelled or completed.
    case orderClosed
    /// An event of a kind the service does not apply.
    case unsupported
    /// Its id was recorded before (not stored: the first delivery's record stands).
    case duplicate
}

/// A tracking event that made a version, kept with it in the version's transaction: the history
/// says which event made each version, and the same event never makes a second one.
public struct AppliedTrackingEvent: Sendable, Hashable {
    public var endpoint: String
    public var eventID: String
    public var provider: String
    public var trackingKey: String
    public var occurredAt: Date
    public var receivedAt: Date
    /// The digest of the version it made (``StoredOrder/archiveSHA256``); empty until saved.
    public var archiveSHA256: String

    public init(
        endpoint: String, eventID: String, provider: String, trackingKey: String, occurredAt: Date, receivedAt: Date,
        archiveSHA256: String = ""
    ) {
        self.endpoint = endpoint
        self.eventID = eventID
        self.provider = provider
        self.trackingKey = trackingKey
        self.occurredAt = occurredAt
        self.receivedAt = receivedAt
        self.archiveSHA256 = archiveSHA256
    }
}
