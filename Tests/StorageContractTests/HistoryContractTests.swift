import FinanceData
import Foundation
import StorageContract
import Testing
import WalletCore

/// The change log behind history tokens, as every backend keeps it.
@Suite("Contract: financial data history")
struct HistoryContractTests {
    static let client: ClientIdentifier = "com.example.budget"

    @Test("imports record inserts, updates and deletes per stream, in sequence order", arguments: BackendFactory.all)
    func changeLog(_ factory: BackendFactory) async throws {
        let finance = try await factory.make().finance
        let account = UUID()
        var transactions = FinanceFixtures.transactions(count: 5, accounts: [account])
        let first = try await finance.apply(
            FinanceBatch(accounts: [FinanceFixtures.asset(account)], transactions: transactions), at: FinanceFixtures.base)
        #expect(first.transactions.inserted == 5)
        let afterFirst = try await finance.historyBounds().latest

        transactions[0].status = transactions[0].status == .booked ? .pending : .booked
        var second = FinanceBatch(transactions: [transactions[0]])
        second.deletedTransactions = [transactions[1].id]
        _ = try await finance.apply(second, at: FinanceFixtures.base)
        let bounds = try await finance.historyBounds()
        let stream = HistoryStream.transactions(accountID: account)
        let all = try await finance.changes(in: stream, for: Self.client, after: 0, through: bounds.latest, limit: 100)
        #expect(all.map(\.kind) == Array(repeating: .insert, count: 5) + [.update, .delete])
        #expect(all.map(\.sequence) == all.map(\.sequence).sorted())
        let later = try await finance.changes(in: stream, for: Self.client, after: afterFirst, through: bounds.latest, limit: 100)
        #expect(later.map(\.entityID) == [transactions[0].id, transactions[1].id])
        let page = try await finance.changes(in: stream, for: Self.client, after: 0, through: bounds.latest, limit: 2)
        #expect(page.count == 2)
    }

    @Test("snapshots page through an account's current state in id order", arguments: BackendFactory.all)
    func snapshots(_ factory: BackendFactory) async throws {
        let finance = try await factory.make().finance
        let account = UUID()
        let transactions = FinanceFixtures.transactions(count: 25, accounts: [account])
        _ = try await finance.apply(
            FinanceBatch(accounts: [FinanceFixtures.asset(account)], transactions: transactions), at: FinanceFixtures.base)
        let access = FinanceFixtures.access([account])
        var seen: [UUID] = []
        var after = ""
        while true {
            let page = try await finance.snapshotTransactions(of: account, visibleTo: access, after: after, limit: 10)
            guard let last = page.last else { break }
            seen += page.map(\.id)
            after = last.id.uuidString
        }
        #expect(seen == transactions.map(\.id).sorted { $0.uuidString < $1.uuidString })
        #expect(
            try await finance.snapshotTransactions(of: account, visibleTo: FinanceFixtures.access([]), after: "", limit: 10)
                .isEmpty)
    }

    @Test("compaction removes old records and moves the horizon", arguments: BackendFactory.all)
    func compaction(_ factory: BackendFactory) async throws {
        let finance = try await factory.make().finance
        let account = UUID()
        _ = try await finance.apply(
            FinanceBatch(
                accounts: [FinanceFixtures.asset(account)],
                transactions: FinanceFixtures.transactions(count: 3, accounts: [account])),
            at: FinanceFixtures.base)
        let removed = try await finance.compactHistory(before: FinanceFixtures.base.addingTimeInterval(1))
        #expect(removed == 4)  // the account and its three transactions
        let bounds = try await finance.historyBounds()
        #expect(bounds.compactedThrough == bounds.latest)
        #expect(try await finance.compactHistory(before: FinanceFixtures.base.addingTimeInterval(1)) == 0)
    }
}
