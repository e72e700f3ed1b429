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
}

extension FinanceQuery {
    /// The answer from what storage returned for ``plan``: the rest of the predicate, the sort,
    /// the offset and the limit, in memory, when the plan could not do them.
    package func finish(_ rows: [Model], plan: QueryPlan) throws -> [Model] {
        guard plan.needsMemory else { return rows }
        var matching = rows
        if !plan.exact, let predicate { matching = try rows.filter { try predicate.evaluate($0) } }
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
        QueryPlan.make(
            predicate: predicate, sort: sortDescriptors, defaultOrder: [StoredOrdering("effectiveDate"), StoredOrdering("id")],
            map: .transactions)
    }

    package static func defaultOrder(_ a: Transaction, _ b: Transaction) -> ComparisonResult {
        a.effectiveDate < b.effectiveDate
            ? .orderedAscending : a.effectiveDate > b.effectiveDate ? .orderedDescending : .orderedSame
    }
}
