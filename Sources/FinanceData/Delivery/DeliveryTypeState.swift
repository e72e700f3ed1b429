import Foundation

/// Where one data type of one endpoint stands: how far the change log has been read for it,
/// whether the client has something to hear about, and when it was last told.
public struct DeliveryTypeState: Sendable, Hashable {
    public var type: BackgroundDataType
    public var frequency: UpdateFrequency
    /// The last change-log sequence read for this type.
    public var scannedThrough: Int64
    /// Client-visible data of this type changed since it was last delivered.
    public var changed: Bool
    /// A delivery naming this type failed for good (4xx, or retries given up): it goes out again
    /// with the next delivery, which a new change decides.
    public var owed: Bool
    /// When the endpoint's last delivery was decided (the same for all its types).
    public var lastPlannedAt: Date?

    public init(
        type: BackgroundDataType, frequency: UpdateFrequency, scannedThrough: Int64, changed: Bool = false, owed: Bool = false,
        lastPlannedAt: Date? = nil
    ) {
        self.type = type
        self.frequency = frequency
        self.scannedThrough = scannedThrough
        self.changed = changed
        self.owed = owed
        self.lastPlannedAt = lastPlannedAt
    }
}
