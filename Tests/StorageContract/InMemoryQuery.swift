import FinanceData
import WalletCore

/// The obvious alternative to a backend's query: every visible row, then the predicate, the sort,
/// the offset and the limit in Swift. Backends must return the same rows in the same order.
public enum InMemoryQuery {
    public static func transactions(
        _ query: TransactionQuery, in repository: any FinanceDataRepository, visibleTo access: ClientAccess
    ) async throws -> [Transaction] {
        let all = try await repository.transactions(TransactionQuery(), visibleTo: access)
        return try query.finish(all, plan: query.inMemoryPlan)
    }
}
