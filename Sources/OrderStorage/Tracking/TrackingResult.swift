import WalletPrimitives

/// What a tracking event came to (docs/tracking.md): the endpoint's answer.
public struct TrackingResult: Sendable, Hashable {
    /// A version the event made.
    public struct Version: Sendable, Hashable {
        public var identifier: FullyQualifiedOrderIdentifier
        public var updatedAt: RFC3339Timestamp
        public var archiveSHA256: String

        public init(identifier: FullyQualifiedOrderIdentifier, updatedAt: RFC3339Timestamp, archiveSHA256: String) {
            self.identifier = identifier
            self.updatedAt = updatedAt
            self.archiveSHA256 = archiveSHA256
        }
    }

    /// The provider's name (`aftership`, `easypost`, `generic`).
    public var provider: String
    /// The provider's identifier of the event; nil for an event of a kind not applied.
    public var eventID: String?
    public var outcome: TrackingOutcome
    /// One per order the event changed, each signed, saved and pushed.
    public var versions: [Version]

    public init(provider: String, eventID: String?, outcome: TrackingOutcome, versions: [Version]) {
        self.provider = provider
        self.eventID = eventID
        self.outcome = outcome
        self.versions = versions
    }
}
