/// The bounds on what a stranger can send to a tracking endpoint (docs/tracking.md, "Limits").
public enum TrackingLimits {
    /// A webhook body's largest size: AfterShip's bodies with every checkpoint of a long journey
    /// stay under 100 KB; a larger one is refused before it is parsed.
    public static let maximumBodySize = 256 * 1024
    /// How deep a body's JSON may nest.
    public static let maximumDepth = 16
    /// The longest string the service reads from a body (a status description, a tracking
    /// number).
    public static let maximumTextLength = 512
    /// The most checkpoints a body may list.
    public static let maximumCheckpoints = 500
    /// How far a provider's signed timestamp may be from now (AfterShip's `ts`): a replayed body
    /// is refused after this long.
    public static let maximumSignatureAge: Duration = .seconds(300)
    /// The most events an endpoint's store keeps (the oldest go first): the window in which a
    /// redelivered event id is recognized when it made no version (one that did is recognized as
    /// long as the order is stored).
    public static let eventsKeptPerEndpoint = 10_000
    /// How long an event no order names is kept, waiting for an order naming its parcel.
    public static let unmatchedLifetime: Duration = .seconds(14 * 86_400)
    /// How long any event is kept.
    public static let eventLifetime: Duration = .seconds(30 * 86_400)
    /// How often a service applies the kept events whose parcel an order now names.
    public static let sweepInterval: Duration = .seconds(2)
    /// How often a service forgets events past their lifetime: a write, so not at every sweep.
    public static let expiryInterval: Duration = .seconds(300)
    /// An event still `received` this long after it arrived was left by a service that stopped:
    /// the sweep applies it.
    public static let abandonedAfter: Duration = .seconds(60)
}
