import Foundation

/// A query for accounts (FinanceKit's `AccountQuery`; Apple defines no predicate helpers).
public struct AccountQuery: Sendable {
    public var sortDescriptors: [SortDescriptor<Account>]
    public var predicate: Predicate<Account>?
    public var limit: Int?
    public var offset: Int?

    public init(
        sortDescriptors: [SortDescriptor<Account>] = [], predicate: Predicate<Account>? = nil, limit: Int? = nil,
        offset: Int? = nil
    ) {
        self.sortDescriptors = sortDescriptors
        self.predicate = predicate
        self.limit = limit
        self.offset = offset
    }
}
