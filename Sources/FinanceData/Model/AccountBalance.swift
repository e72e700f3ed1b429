import Foundation

/// An account's balance at one moment.
public struct AccountBalance: Codable, Equatable, Hashable, Identifiable, Sendable {
    public let id: UUID
    public var accountID: UUID
    public var currentBalance: CurrentBalance

    public init(id: UUID, accountID: UUID, currentBalance: CurrentBalance) {
        self.id = id
        self.accountID = accountID
        self.currentBalance = currentBalance
    }

    public var available: Balance? { currentBalance.available }
    public var booked: Balance? { currentBalance.booked }

    /// The currency of the balance (both parts share one currency).
    public var currencyCode: String {
        (available ?? booked)?.amount.currencyCode ?? ""
    }
}
