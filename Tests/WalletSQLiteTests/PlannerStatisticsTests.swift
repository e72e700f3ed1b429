import Foundation
import GRDB
import StorageContract
import Testing

@testable import FinanceData
@testable import WalletSQLite

@Suite("Planner statistics follow the imports")
struct PlannerStatisticsTests {
    struct State: Equatable {
        var analyzedRows: Int
        var changesSince: Int
        var statisticsRows: Int
    }

    static func state(_ backend: SQLiteBackend) throws -> State {
        try backend.pool.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT analyzedRows, changesSince FROM financeStatistics"))
            let analyzed =
                try db.tableExists("sqlite_stat1")
                ? try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'transactions'") ?? 0 : 0
            return State(analyzedRows: row[0], changesSince: row[1], statisticsRows: analyzed)
        }
    }

    @Test("analysis runs once 1,000 rows changed, then when changes reach a quarter of the rows")
    func thresholds() async throws {
        let backend = try SQLiteFixtures.backend()
        let repository = backend.finance
        let account = UUID()
        let transactions = FinanceFixtures.transactions(count: 6_300, accounts: [account])
        let now = FinanceFixtures.base
        _ = try await repository.apply(FinanceBatch(accounts: [FinanceFixtures.asset(account)]), at: now)

        _ = try await repository.apply(FinanceBatch(transactions: Array(transactions[0..<999])), at: now)
        #expect(try Self.state(backend) == State(analyzedRows: 0, changesSince: 999, statisticsRows: 0))

        _ = try await repository.apply(FinanceBatch(transactions: [transactions[999]]), at: now)
        let analyzed = try Self.state(backend)
        #expect(analyzed.analyzedRows == 1_000 && analyzed.changesSince == 0)
        #expect(analyzed.statisticsRows > 5)  // one row per index of the table

        // Re-importing identical records changes nothing and counts nothing.
        _ = try await repository.apply(FinanceBatch(transactions: Array(transactions[0..<1_000])), at: now)
        #expect(try Self.state(backend).changesSince == 0)

        _ = try await repository.apply(FinanceBatch(transactions: Array(transactions[1_000..<5_000])), at: now)
        #expect(try Self.state(backend).analyzedRows == 5_000)

        // Above 4,000 rows the quarter governs: 1,250 changes at 5,000 rows.
        _ = try await repository.apply(FinanceBatch(transactions: Array(transactions[5_000..<6_249])), at: now)
        #expect(
            try Self.state(backend) == State(analyzedRows: 5_000, changesSince: 1_249, statisticsRows: analyzed.statisticsRows)
        )
        _ = try await repository.apply(FinanceBatch(deletedTransactions: [transactions[0].id]), at: now)
        #expect(try Self.state(backend).analyzedRows == 6_248)
    }

    @Test("a rejected import counts nothing")
    func rejectedImport() async throws {
        let backend = try SQLiteFixtures.backend()
        let repository = backend.finance
        let account = UUID()
        _ = try await repository.apply(FinanceBatch(accounts: [FinanceFixtures.asset(account)]), at: FinanceFixtures.base)
        var transactions = FinanceFixtures.transactions(count: 1_200, accounts: [account])
        transactions[1_100].accountID = UUID()  // an account the store does not hold
        await #expect(throws: FinanceDataError.self) {
            _ = try await repository.apply(FinanceBatch(transactions: transactions), at: FinanceFixtures.base)
        }
        #expect(try Self.state(backend) == State(analyzedRows: 0, changesSince: 0, statisticsRows: 0))
    }
}
