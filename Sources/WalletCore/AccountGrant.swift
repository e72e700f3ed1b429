import Foundation

/// One account shared with a client, and the earliest date the client may see in it
/// (transactions dated, and balances as of, before it are never returned). Nil: no limit.
public struct AccountGrant: Hashable, Sendable, Codable {
    public var accountID: UUID
    public var earliestDate: Date?

    public init(accountID: UUID, earliestDate: Date? = nil) {
        self.accountID = accountID
        self.earliestDate = earliestDate
    }
}
