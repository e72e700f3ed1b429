import Foundation

/// How often at most a client is woken (FinanceKit's `UpdateFrequency`): the minimum interval
/// between two deliveries of a data type, and never one when nothing changed.
public enum UpdateFrequency: String, CaseIterable, Codable, Hashable, Sendable {
    case hourly
    case daily
    case weekly

    /// The minimum time between two deliveries.
    public var interval: TimeInterval {
        switch self {
        case .hourly: 3_600
        case .daily: 86_400
        case .weekly: 604_800
        }
    }
}
