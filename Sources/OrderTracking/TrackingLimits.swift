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
}
