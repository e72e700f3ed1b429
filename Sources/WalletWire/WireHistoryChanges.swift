import FinanceData
import Foundation

/// One batch of a history stream (`orders finance history`): what was inserted, updated and
/// deleted since the previous token, and the token to resume after it.
public struct WireHistoryChanges<Model: Codable & Sendable>: Codable, Sendable {
    /// `accounts`, `balances` or `transactions`.
    public var stream: String
    public var inserted: [Model]
    public var updated: [Model]
    public var deleted: [UUID]
    public var newToken: HistoryToken

    public init(stream: String, inserted: [Model], updated: [Model], deleted: [UUID], newToken: HistoryToken) {
        self.stream = stream
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.newToken = newToken
    }
}
