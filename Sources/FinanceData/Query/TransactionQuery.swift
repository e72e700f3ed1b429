import Foundation

/// A query for transactions (FinanceKit's `TransactionQuery`): a predicate, sort descriptors,
/// then offset and limit, applied in that order.
///
/// ```swift
/// let since = Date(timeIntervalSinceNow: -30 * 86_400)
/// let query = TransactionQuery(
///     sortDescriptors: [SortDescriptor(\.transactionDate, order: .reverse)],
///     predicate: #Predicate { $0.transactionDate >= since },
///     limit: 50)
/// let recent = try await store.transactions(query: query)
/// ```
///
/// Predicates made of `==`, `!=`, `<`, `<=`, `>`, `>=`, `&&`, `||`, `!`, `!= nil`, `contains` on
/// a constant array, optional `flatMap … ?? false` and `??` over ids, account ids, status, type,
/// credit/debit indicator, merchant category code, merchant name, currency code and the dates run
/// in SQL on indexed columns; anything else is evaluated in memory, with the same result.
/// (Capture enum cases in constants: `#Predicate` cannot name them directly.)
public struct TransactionQuery: Sendable {
    public var sortDescriptors: [SortDescriptor<Transaction>]
    public var predicate: Predicate<Transaction>?
    public var limit: Int?
    public var offset: Int?
    /// A server addition (FinanceKit has none; the transaction picker's search): only
    /// transactions whose description, original description or merchant name contains this
    /// text, ASCII letters matching in either case and every other character exactly. Runs in
    /// SQL with the rest of the query; nil or empty: no search.
    public var textSearch: String?

    public init(
        sortDescriptors: [SortDescriptor<Transaction>] = [], predicate: Predicate<Transaction>? = nil, limit: Int? = nil,
        offset: Int? = nil
    ) {
        self.sortDescriptors = sortDescriptors
        self.predicate = predicate
        self.limit = limit
        self.offset = offset
    }

    /// Transactions whose merchant category code is any of `codes`.
    public static func predicate(forMerchantCategoryCodes codes: [MerchantCategoryCode]) -> Predicate<Transaction> {
        #Predicate<Transaction> { transaction in transaction.merchantCategoryCode.flatMap { codes.contains($0) } ?? false }
    }

    /// Transactions with any of `statuses`.
    public static func predicate(forStatuses statuses: [TransactionStatus]) -> Predicate<Transaction> {
        #Predicate<Transaction> { transaction in statuses.contains(transaction.status) }
    }

    /// Transactions of any of `types`.
    public static func predicate(forTransactionTypes types: [TransactionType]) -> Predicate<Transaction> {
        #Predicate<Transaction> { transaction in types.contains(transaction.transactionType) }
    }
}
