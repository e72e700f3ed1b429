import FinanceData
import Foundation
import StorageContract
import Testing
import WalletCore
import WalletStorage

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

    /// A history of `stream` for `client` read straight from the backend, as the facade builds
    /// one: its first batch (the catch-up) and a way to read what came after it.
    static func history<Model>(
        _ backend: any StorageBackend, _ stream: HistoryStream, for client: ClientIdentifier,
        snapshot: @escaping @Sendable (ClientAccess, String, Int) async throws -> [Model],
        load: @escaping @Sendable ([UUID], ClientAccess) async throws -> [Model]
    ) -> (HistoryToken?) -> History<Model> {
        { token in
            History(
                source: HistorySource(
                    repository: backend.finance, access: backend.access, client: client, stream: stream,
                    authorize: { try await backend.access.access(for: client) }, snapshot: snapshot, load: load,
                    configuration: HistoryConfiguration(), clock: { FinanceFixtures.base }),
                since: token, isMonitoring: false)
        }
    }

    /// Everything `history` delivers after `token`: the deleted ids.
    static func deletions<Model>(_ history: History<Model>) async throws -> [UUID] {
        var deleted: [UUID] = []
        for try await changes in history { deleted += changes.deleted }
        return deleted
    }

    @Test(
        "deletions follow the grant: never-shared accounts and records dated before the earliest date stay invisible, in history and to the planner alike",
        arguments: BackendFactory.all)
    func deletionsFollowTheGrant(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let finance = backend.finance
        let (shared, other) = (UUID(), UUID())
        let earliest = FinanceFixtures.base.addingTimeInterval(10 * 86_400)
        var old = FinanceFixtures.transactions(count: 2, accounts: [shared], seed: 40)
        old[0].transactionDate = earliest.addingTimeInterval(-86_400)  // before the grant
        old[1].transactionDate = earliest.addingTimeInterval(86_400)  // within it
        let straddling = AccountBalance(
            id: UUID(), accountID: shared,
            currentBalance: .availableAndBooked(
                available: Balance(
                    amount: CurrencyAmount(amount: 5, currencyCode: "EUR"), asOfDate: earliest.addingTimeInterval(86_400),
                    creditDebitIndicator: .credit),
                booked: Balance(
                    amount: CurrencyAmount(amount: 5, currencyCode: "EUR"), asOfDate: earliest.addingTimeInterval(-86_400),
                    creditDebitIndicator: .credit)))
        _ = try await finance.apply(
            FinanceBatch(
                accounts: [FinanceFixtures.asset(shared), FinanceFixtures.asset(other, name: "Never shared")],
                balances: [straddling], transactions: old),
            at: FinanceFixtures.base)

        // One client per question, each with an endpoint, so that the planner answers each alone.
        var round = 0
        func ask(
            _ type: BackgroundDataType, history read: (ClientIdentifier) async throws -> [UUID]
        ) async throws -> (history: [UUID], woken: Bool) {
            round += 1
            let client = ClientIdentifier(rawValue: "com.example.deletions\(round)")!
            _ = try await backend.access.recordDecision(
                .authorized([AccountGrant(accountID: shared, earliestDate: earliest)]), for: client, at: FinanceFixtures.base)
            let time = FinanceFixtures.base.addingTimeInterval(Double(round))
            _ = try await backend.backgroundDelivery.enable(
                [type], frequency: .hourly, url: try WebhookURL("https://\(round).example/hook"), for: client,
                secret: "wds_\(round)", maximumEndpoints: 1, at: time)
            _ = try await backend.backgroundDelivery.planDeliveries(at: time, scanLimit: 1_000)
            let history = try await read(client)  // caught up, then the deletion, then the rest
            _ = try await backend.backgroundDelivery.planDeliveries(at: time.addingTimeInterval(0.5), scanLimit: 1_000)
            let claimed = try await backend.backgroundDelivery.claimDeliveries(
                dueAt: time.addingTimeInterval(0.5), leaseEnd: time.addingTimeInterval(60), limit: 100)
            return (history, claimed.contains { $0.client == client && $0.types.contains(type) })
        }
        func transactionHistory(_ client: ClientIdentifier) -> (HistoryToken?) -> History<Transaction> {
            Self.history(
                backend, .transactions(accountID: shared), for: client,
                snapshot: { access, after, limit in
                    try await finance.snapshotTransactions(of: shared, visibleTo: access, after: after, limit: limit)
                }, load: { ids, access in try await finance.transactions(ids: ids, visibleTo: access) })
        }
        func catchUpThenApply<Model>(_ make: (HistoryToken?) -> History<Model>, _ batch: FinanceBatch) async throws -> [UUID] {
            var token: HistoryToken?
            for try await changes in make(nil) { token = changes.newToken }
            _ = try await finance.apply(batch, at: FinanceFixtures.base)
            return try await Self.deletions(make(token))
        }

        // A transaction dated before the grant's earliest date, deleted: invisible to both.
        let before = try await ask(.transactions) { client in
            try await catchUpThenApply(transactionHistory(client), FinanceBatch(deletedTransactions: [old[0].id]))
        }
        #expect(before.history.isEmpty && !before.woken, "\(before)")
        // One within it: both see it.
        let within = try await ask(.transactions) { client in
            try await catchUpThenApply(transactionHistory(client), FinanceBatch(deletedTransactions: [old[1].id]))
        }
        #expect(within.history == [old[1].id] && within.woken, "\(within)")
        // A balance one of whose dates is before it: invisible to both.
        let balance = try await ask(.accountBalances) { client in
            try await catchUpThenApply(
                Self.history(
                    backend, .balances(accountID: shared), for: client,
                    snapshot: { access, after, limit in
                        try await finance.snapshotBalances(of: shared, visibleTo: access, after: after, limit: limit)
                    }, load: { ids, access in try await finance.accountBalances(ids: ids, visibleTo: access) }),
                FinanceBatch(deletedBalances: [straddling.id]))
        }
        #expect(balance.history.isEmpty && !balance.woken, "\(balance)")
        // An account never shared, deleted: invisible in account history and to the planner.
        let account = try await ask(.accounts) { client in
            try await catchUpThenApply(
                Self.history(
                    backend, .accounts, for: client,
                    snapshot: { access, after, limit in
                        try await finance.snapshotAccounts(visibleTo: access, after: after, limit: limit)
                    },
                    load: { ids, access in try await finance.accounts(ids: ids, visibleTo: access) }),
                FinanceBatch(deletedAccounts: [other]))
        }
        #expect(account.history.isEmpty && !account.woken, "\(account)")
    }
}
