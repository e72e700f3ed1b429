import Foundation
import GRDB
import StorageContract
import Testing
import WalletCore

@testable import FinanceData
@testable import WalletSQLite

@Suite("Storage failures are StorageError (store.unavailable)")
struct StorageFailureTests {
    @Test("a row the store cannot read back names the value")
    func corruptRow() async throws {
        let backend = try SQLiteFixtures.backend()
        let repository = backend.finance
        let account = UUID()
        let transactions = FinanceFixtures.transactions(count: 3, accounts: [account])
        _ = try await repository.apply(
            FinanceBatch(accounts: [FinanceFixtures.asset(account)], transactions: transactions), at: FinanceFixtures.base)
        try await backend.pool.write { db in
            try db.execute(
                sql: "UPDATE transactions SET amount = 'twelve' WHERE id = ?", arguments: [transactions[1].id.uuidString])
        }
        let error = await #expect(throws: StorageError.self) {
            _ = try await repository.transactions(TransactionQuery(), visibleTo: FinanceFixtures.access([account]))
        }
        #expect(error?.code == "store.unavailable")
        #expect(error?.reason == "the store holds an unreadable value 'twelve' (column 2)")
    }

    @Test("an SQLite failure while importing changes nothing")
    func failedWrite() async throws {
        let backend = try SQLiteFixtures.backend()
        let repository = backend.finance
        let account = UUID()
        _ = try await repository.apply(FinanceBatch(accounts: [FinanceFixtures.asset(account)]), at: FinanceFixtures.base)
        // A trigger stands in for a disk that fails mid-import.
        try await backend.pool.write { db in
            try db.execute(
                sql: """
                    CREATE TEMP TRIGGER failing AFTER INSERT ON transactions WHEN NEW.transactionDescription = 'Purchase 2'
                    BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END
                    """)
        }
        let error = await #expect(throws: StorageError.self) {
            _ = try await repository.apply(
                FinanceBatch(transactions: FinanceFixtures.transactions(count: 5, accounts: [account])), at: FinanceFixtures.base)
        }
        #expect(error?.description.hasPrefix("the store is unavailable: ") == true)
        #expect(try await repository.transactions(TransactionQuery(), visibleTo: FinanceFixtures.access([account])).isEmpty)
    }

    @Test("a change record the store cannot read is an error, not a change silently skipped")
    func corruptChange() async throws {
        let backend = try SQLiteFixtures.backend()
        let repository = backend.finance
        let account = UUID()
        _ = try await repository.apply(
            FinanceBatch(
                accounts: [FinanceFixtures.asset(account)],
                transactions: FinanceFixtures.transactions(count: 2, accounts: [account])),
            at: FinanceFixtures.base)
        try await backend.pool.write { db in
            try db.execute(
                sql:
                    "UPDATE financeChanges SET entityID = 'not-a-uuid' WHERE stream LIKE 'transactions/%' AND sequence = (SELECT max(sequence) FROM financeChanges)"
            )
        }
        let error = await #expect(throws: StorageError.self) {
            _ = try await repository.changes(
                in: .transactions(accountID: account), for: "com.example.tests", after: 0, through: .max, limit: 10)
        }
        #expect(error?.reason == "the store holds an unreadable value 'not-a-uuid' (column 1)")
    }
}
