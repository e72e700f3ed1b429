import Foundation

/// A query for account balances (FinanceKit's `AccountBalanceQuery`).
public struct AccountBalanceQuery: Sendable {
    public var sortDescriptors: [SortDescriptor<AccountBalance>]
    public var predicate: Predicate<AccountBalance>?
    public var limit: Int?
    public var offset: Int?

    public init(
        sortDescriptors: [SortDescriptor<AccountBalance>] = [], predicate: Predicate<AccountBalance>? = nil, limit: Int? = nil,
        offset: Int? = nil
    ) {
        self.sortDescriptors = sortDescriptors
        self.predicate = predicate
        self.limit = limit
        self.offset = offset
    }

    /// Balances whose available part is as of `startDate ≤ asOfDate < endDate` (no upper bound
    /// when `endDate` is nil).
    public static func predicate(availableSince startDate: Date, until endDate: Date? = nil) -> Predicate<AccountBalance> {
        if let endDate {
            return #Predicate<AccountBalance> { balance in
                balance.available.flatMap { $0.asOfDate >= startDate && $0.asOfDate < endDate } ?? false
            }
        }
        return #Predicate<AccountBalance> { balance in balance.available.flatMap { $0.asOfDate >= startDate } ?? false }
    }

    /// Balances whose booked part is as of `startDate ≤ asOfDate < endDate` (no upper bound when
    /// `endDate` is nil).
    public static func predicate(bookedSince startDate: Date, until endDate: Date? = nil) -> Predicate<AccountBalance> {
        if let endDate {
            return #Predicate<AccountBalance> { balance in
                balance.booked.flatMap { $0.asOfDate >= startDate && $0.asOfDate < endDate } ?? false
            }
        }
        return #Predicate<AccountBalance> { balance in balance.booked.flatMap { $0.asOfDate >= startDate } ?? false }
    }
}
