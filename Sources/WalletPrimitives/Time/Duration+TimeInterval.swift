import Foundation

extension Duration {
    /// The duration in seconds, as Foundation's `Date` arithmetic takes it.
    ///
    /// ```swift
    /// let cutoff = now.addingTimeInterval(-retention.timeInterval)
    /// ```
    public var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
