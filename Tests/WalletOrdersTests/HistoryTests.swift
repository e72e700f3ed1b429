import Foundation
import TestArchiveTable
import Testing
import WalletOrders

@Suite("History streams: catch-up, changes, tokens, monitoring, compaction")
struct HistoryTests {
    /// Drains a finite stream.
    static func drain<Model>(_ history: FinanceData.History<Model>) async throws -> [Changes<Model>] {
        var batches: [Changes<Model>] = []
        for try await changes in history { batches.append(changes) }
        return batches
    }

    @Test("since nil delivers the current state as inserted, then changes: pending to booked is an update, with deletions")
    func catchUpThenChanges() async throws {
        let wallet = try await WalletFixtures.authorizedWallet()
        let store = wallet.financeStore(for: WalletFixtures.client)
        let catchUp = try await Self.drain(store.transactionHistory(forAccountID: WalletFixtures.checking, isMonitoring: false))
        #expect(catchUp.flatMap(\.inserted).count == 5)
        #expect(catchUp.allSatisfy { $0.updated.isEmpty && $0.deleted.isEmpty })
        let token = try #require(catchUp.last?.newToken)

        let summary = try await wallet.importFeed(WalletFixtures.feed("finance-feed-update.json"))
        #expect(summary.transactions.updated == 1 && summary.transactions.inserted == 1 && summary.transactions.deleted == 1)

        let changes = try await Self.drain(
            store.transactionHistory(forAccountID: WalletFixtures.checking, since: token, isMonitoring: false))
        #expect(changes.count == 1)
        let batch = try #require(changes.first)
        let coffee = UUID(uuidString: "A1000000-0000-4000-8000-000000000004")
        #expect(batch.updated.map(\.id) == [coffee].compactMap { $0 })
        #expect(batch.updated.first?.status == .booked)
        #expect(batch.inserted.map(\.transactionDescription) == ["Cinema"])
        #expect(batch.deleted == [UUID(uuidString: "A1000000-0000-4000-8000-000000000005")].compactMap { $0 })
        // The other account's stream saw nothing.
        let card = try await Self.drain(store.transactionHistory(forAccountID: WalletFixtures.card, isMonitoring: false))
        #expect(card.flatMap(\.inserted).count == 2)
    }

    @Test("a token survives a restart, and is refused on another stream")
    func tokensAcrossRestarts() async throws {
        let path = WalletFixtures.path()
        var token: HistoryToken?
        do {
            let wallet = try await WalletFixtures.authorizedWallet(at: path)
            for try await changes in wallet.financeStore(for: WalletFixtures.client).accountHistory(isMonitoring: false) {
                token = changes.newToken
            }
        }
        // The token as an app would persist it: encoded, then decoded later.
        let saved = try JSONEncoder().encode(try #require(token))
        let restored = try JSONDecoder().decode(HistoryToken.self, from: saved)

        let reopened = try WalletFixtures.wallet(at: path)
        let store = reopened.financeStore(for: WalletFixtures.client)
        #expect(try await Self.drain(store.accountHistory(since: restored, isMonitoring: false)).isEmpty)
        try await reopened.revoke(WalletFixtures.client, accounts: [WalletFixtures.card])
        let afterRevoke = try await Self.drain(store.accountHistory(since: restored, isMonitoring: false))
        #expect(afterRevoke.flatMap(\.deleted) == [WalletFixtures.card])

        let elsewhere = store.transactionHistory(forAccountID: WalletFixtures.checking, since: restored, isMonitoring: false)
            .makeAsyncIterator()
        await #expect(throws: FinanceError.historyTokenInvalid) { try await elsewhere.next() }
        let garbage = try JSONDecoder().decode(HistoryToken.self, from: Data(#""bm90IGEgdG9rZW4=""#.utf8))
        let invalid = store.accountHistory(since: garbage, isMonitoring: false).makeAsyncIterator()
        await #expect(throws: FinanceError.historyTokenInvalid) { try await invalid.next() }
    }

    @Test("a catch-up in small batches can stop and resume from any token without losing or repeating records")
    func resumableCatchUp() async throws {
        let path = WalletFixtures.path()
        let clock = TestClock()
        let wallet = try WalletFixtures.wallet(
            at: path, clock: clock, history: HistoryConfiguration(batchSize: 2, pollInterval: .milliseconds(20)))
        try await wallet.importFeed(WalletFixtures.feed())
        try await wallet.grant([AccountGrant(accountID: WalletFixtures.checking)], to: WalletFixtures.client)
        let store = wallet.financeStore(for: WalletFixtures.client)
        var seen: [UUID] = []
        let first = store.transactionHistory(forAccountID: WalletFixtures.checking, isMonitoring: false).makeAsyncIterator()
        let batch = try #require(try await first.next())
        seen += batch.inserted.map(\.id)
        // Stop after one batch; resume from its token.
        for try await changes in store.transactionHistory(
            forAccountID: WalletFixtures.checking, since: batch.newToken, isMonitoring: false)
        {
            seen += changes.inserted.map(\.id)
        }
        #expect(seen.count == 5)
        #expect(Set(seen).count == 5)
    }

    @Test("monitoring delivers changes ingested later, including by another process, until cancelled")
    func monitoring() async throws {
        let path = WalletFixtures.path()
        let wallet = try await WalletFixtures.authorizedWallet(at: path)
        // Another process (its own connections) ingests the update.
        try await Self.expectMonitoring(wallet.financeStore(for: WalletFixtures.client)) {
            try await WalletFixtures.wallet(at: path).importFeed(WalletFixtures.feed("finance-feed-update.json"))
        }
    }

    /// Monitors the checking account's transactions: the catch-up (the sample feed's five), then
    /// the changes `importUpdate` (the update feed) makes, live, then cancellation.
    static func expectMonitoring(_ store: FinanceStore, importUpdate: () async throws -> Void) async throws {
        let received = AsyncStream<Changes<Transaction>>.makeStream()
        let reader = Task {
            for try await changes in store.transactionHistory(forAccountID: WalletFixtures.checking, isMonitoring: true) {
                received.continuation.yield(changes)
            }
        }
        var batches = received.stream.makeAsyncIterator()
        let catchUp = try #require(await batches.next())
        #expect(catchUp.inserted.count == 5)

        try await importUpdate()
        let live = try #require(await batches.next())
        #expect(live.updated.map(\.transactionDescription) == ["Coffee"])
        #expect(live.inserted.map(\.transactionDescription) == ["Cinema"])
        #expect(live.deleted.count == 1)

        reader.cancel()
        let outcome = await reader.result
        #expect(throws: CancellationError.self) { try outcome.get() }
    }

    @Test("compaction: an old token is refused; a fresh catch-up rebuilds the state with nothing lost")
    func compaction() async throws {
        let clock = TestClock()
        let wallet = try WalletFixtures.wallet(
            clock: clock,
            history: HistoryConfiguration(batchSize: 500, pollInterval: .milliseconds(20), retention: .seconds(30 * 86_400)))
        try await wallet.importFeed(WalletFixtures.feed())
        try await wallet.grant([AccountGrant(accountID: WalletFixtures.checking)], to: WalletFixtures.client)
        let store = wallet.financeStore(for: WalletFixtures.client)
        var token: HistoryToken?
        for try await changes in store.transactionHistory(forAccountID: WalletFixtures.checking, isMonitoring: false) {
            token = changes.newToken
        }

        clock.advance(days: 10)
        try await wallet.importFeed(WalletFixtures.feed("finance-feed-update.json"))  // changes the client has not read
        clock.advance(days: 31)
        #expect(try await wallet.compactHistory() > 0)

        let stale = store.transactionHistory(forAccountID: WalletFixtures.checking, since: token, isMonitoring: false)
            .makeAsyncIterator()
        await #expect(throws: FinanceError.historyTokenInvalid) { try await stale.next() }

        // Recovery: discard the token and catch up again.
        let rebuilt = try await Self.drain(store.transactionHistory(forAccountID: WalletFixtures.checking, isMonitoring: false))
        let state = rebuilt.flatMap(\.inserted)
        #expect(Set(state.map(\.transactionDescription)) == ["Salary November", "Rent", "Groceries", "Coffee", "Cinema"])
        #expect(state.first { $0.transactionDescription == "Coffee" }?.status == .booked)
    }

    @Test("every import compacts, a batch built in code as much as a feed")
    func importsCompact() async throws {
        let clock = TestClock()
        let wallet = try WalletFixtures.wallet(
            clock: clock,
            history: HistoryConfiguration(batchSize: 500, pollInterval: .milliseconds(20), retention: .seconds(30 * 86_400)))
        try await wallet.importFeed(WalletFixtures.feed())
        try await wallet.grant([AccountGrant(accountID: WalletFixtures.checking)], to: WalletFixtures.client)
        let store = wallet.financeStore(for: WalletFixtures.client)
        let token = try await Self.drain(store.transactionHistory(forAccountID: WalletFixtures.checking, isMonitoring: false))
            .last?.newToken
        clock.advance(days: 10)
        try await wallet.importFeed(WalletFixtures.feed("finance-feed-update.json"))  // changes the client has not read

        clock.advance(days: 31)
        try await wallet.apply(FinanceBatch())
        #expect(try await wallet.compactHistory() == 0)  // the import already compacted
        let stale = store.transactionHistory(forAccountID: WalletFixtures.checking, since: token, isMonitoring: false)
            .makeAsyncIterator()
        await #expect(throws: FinanceError.historyTokenInvalid) { try await stale.next() }
    }
}
