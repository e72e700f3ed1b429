import Foundation

/// What the three queries share, as every backend runs them: a ``QueryPlan`` for storage, and
/// the same completion in memory when the plan leaves work to it.
package protocol FinanceQuery {
    associatedtype Model: Identifiable where Model.ID == UUID
    var sortDescriptors: [SortDescriptor<Model>] { get }
    var predicate: Predicate<Model>? { get }
    var limit: Int? { get }
    var offset: Int? { get }
    /// What storage should select, order and page.
    var plan: QueryPlan { get }
    /// The order without sort descriptors, in Swift (storage's is in ``plan``); ties go by id.
    static func defaultOrder(_ a: Model, _ b: Model) -> ComparisonResult
    /// What the query selects besides its predicate (a transaction search), in Swift: true for
    /// every row when there is nothing.
    func memoryFilter(_ model: Model) -> Bool
}

extension FinanceQuery {
    package func memoryFilter(_ model: Model) -> Bool { true }
}

extension FinanceQuery {
    /// The answer from what storage returned for ``plan``: the rest of the predicate, the sort,
    /// the offset and the limit, in memory, when the plan could not do them.
    package func finish(_ rows: [Model], plan: QueryPlan) throws -> [Model] {
        guard plan.needsMemory else { return rows }
        var matching = rows
        if !plan.exact, let predicate { matching = try rows.filter { try predicate.evaluate($0) } }
        if !plan.exact { matching = matching.filter(memoryFilter) }
        return MemorySort.page(
            MemorySort.sorted(matching, by: sortDescriptors, default: Self.defaultOrder), offset: offset, limit: limit)
    }

    /// Every visible row in storage, the whole query in memory: the obvious alternative, which
    /// tests and benchmarks compare ``plan`` with.
    package var inMemoryPlan: QueryPlan { .inMemory }
}

extension AccountQuery: FinanceQuery {
    package var plan: QueryPlan {
        QueryPlan.make(predicate: predicate, sort: sortDescriptors, defaultOrder: [StoredOrdering("id")], map: .accounts)
    }

    package static func defaultOrder(_ a: Account, _ b: Account) -> ComparisonResult { .orderedSame }
}

extension AccountBalanceQuery: FinanceQuery {
    package var plan: QueryPlan {
        QueryPlan.make(predicate: predicate, sort: sortDescriptors, defaultOrder: [StoredOrdering("id")], map: .balances)
    }

    package static func defaultOrder(_ a: AccountBalance, _ b: AccountBalance) -> ComparisonResult { .orderedSame }
}

extension TransactionQuery: FinanceQuery {
    package var plan: QueryPlan {
        var plan = QueryPlan.make(
            predicate: predicate, sort: sortDescriptors, defaultOrder: [StoredOrdering("effectiveDate"), StoredOrdering("id")],
            map: .transactions)
        if let needle = TextSearch.needle(textSearch) {
            plan.filter = .all([plan.filter, .containsText(TextSearch.transactionColumns.map { .column($0) }, needle)])
        }
        return plan
    }

    package func memoryFilter(_ transaction: Transaction) -> Bool {
        guard let needle = TextSearch.needle(textSearch) else { return true }
        return TextSearch.matches(
            [transaction.transactionDescription, transaction.originalTransactionDescription, transaction.merchantName], needle)
    }

    package static func defaultOrder(_ a: Transaction, _ b: Transaction) -> ComparisonResult {
        a.effectiveDate < b.effectiveDate
            ? .orderedAscending : a.effectiveDate > b.effectiveDate ? .orderedDescending : .orderedSame
    }
}
