import Foundation
import Logging
import Testing
import WalletOrders

@Suite("Availability, restriction and authorization: the shared core")
struct AccessTests {
    @Test("an entitlement to an order type holding U+0000 is refused, not stored as its prefix")
    func entitlementWithNUL() async throws {
        let wallet = try WalletFixtures.wallet()
        await #expect(throws: StorageError.self) {
            try await wallet.entitle(WalletFixtures.client, toOrderTypes: ["order.com.example\u{0}.evil"])
        }
        #expect(try await wallet.access(for: WalletFixtures.client).orderTypeIdentifiers.isEmpty)
    }

    @Test("an unavailable data type throws a distinct error and is logged at error level")
    func availability() async throws {
        let logs = LogMessages()
        let wallet = try WalletFixtures.wallet(availability: DataAvailability(available: [.orders]), logs: logs)
        let store = wallet.financeStore(for: WalletFixtures.client)
        #expect(store.isDataAvailable(.orders))
        #expect(!store.isDataAvailable(.financialData))
        await #expect(throws: FinanceAccessError.dataTypeUnavailable(.financialData)) {
            try await store.transactions(query: TransactionQuery())
        }
        await #expect(throws: FinanceAccessError.dataTypeUnavailable(.financialData)) {
            try await wallet.importFeed(WalletFixtures.feed())
        }
        #expect(logs.all.contains { $0.0 == .error && $0.1.contains("transactions called for financialData") })
        // From the environment, constant for the process.
        #expect(try DataAvailability.fromEnvironment(["ORDERS_DATA_TYPES": "orders"]).availableDataTypes == [.orders])
        #expect(try DataAvailability.fromEnvironment([:]).availableDataTypes == [.orders, .financialData])
        #expect(
            try DataAvailability.fromEnvironment(["ORDERS_DATA_TYPES": " financialData, ,orders"]).availableDataTypes
                == [.orders, .financialData])
        #expect(throws: ConfigurationError.self) { try DataAvailability.fromEnvironment(["ORDERS_DATA_TYPES": "orders,order"]) }
    }

    @Test("a restriction set through one connection is seen by another at once, changes nothing, and lifts without restart")
    func restriction() async throws {
        let path = WalletFixtures.path()
        let operatorSide = try await WalletFixtures.authorizedWallet(at: path)
        let otherProcess = try WalletFixtures.wallet(at: path)  // its own connections, as another process would have
        let store = otherProcess.financeStore(for: WalletFixtures.client)
        #expect(try await store.transactions(query: TransactionQuery()).count == 7)

        try await operatorSide.setRestricted(.financialData, true)
        #expect(try await otherProcess.restriction(of: .financialData) != nil)
        await #expect(throws: FinanceError.dataRestricted(.financialData)) {
            try await store.transactions(query: TransactionQuery())
        }
        await #expect(throws: FinanceError.dataRestricted(.financialData)) { try await store.authorizationStatus() }
        await #expect(throws: FinanceError.dataRestricted(.financialData)) {
            try await otherProcess.importFeed(WalletFixtures.feed("finance-feed-update.json"))
        }
        let iterator = store.accountHistory(isMonitoring: false).makeAsyncIterator()
        await #expect(throws: FinanceError.dataRestricted(.financialData)) { try await iterator.next() }

        try await operatorSide.setRestricted(.financialData, false)
        // Nothing changed while restricted: still seven transactions, the pending coffee unchanged.
        let transactions = try await store.transactions(query: TransactionQuery())
        #expect(transactions.count == 7)
        #expect(transactions.first { $0.transactionDescription == "Coffee" }?.status == .pending)

        try await operatorSide.setRestricted(.orders, true)
        await #expect(throws: FinanceError.dataRestricted(.orders)) {
            try await store.containsOrder(
                matching: FullyQualifiedOrderIdentifier(orderTypeIdentifier: "order.com.example.shop", orderIdentifier: "X"))
        }
    }

    @Test("authorization: not determined, prompted once, then cached; status never prompts")
    func authorizationLifeCycle() async throws {
        let prompt = ScriptedAuthorizationPrompt([.authorized([AccountGrant(accountID: WalletFixtures.checking)])])
        let wallet = try WalletFixtures.wallet(prompt: prompt)
        try await wallet.importFeed(WalletFixtures.feed())
        let store = wallet.financeStore(for: WalletFixtures.client)

        #expect(try await store.authorizationStatus() == .notDetermined)
        #expect(await prompt.asked == 0)
        await #expect {
            try await store.accounts(query: AccountQuery())
        } throws: { error in
            error as? FinanceAccessError == .notAuthorized(WalletFixtures.client, status: .notDetermined)
        }

        #expect(try await store.requestAuthorization() == .authorized)
        #expect(await prompt.asked == 1)
        #expect(await prompt.lastChoices.map(\.displayName) == ["Everyday Account", "Travel Card"])
        #expect(try await store.requestAuthorization() == .authorized)
        #expect(await prompt.asked == 1)
        #expect(try await store.accounts(query: AccountQuery()).map(\.id) == [WalletFixtures.checking])
    }

    @Test("a denial is cached too; another client is asked separately")
    func denial() async throws {
        let prompt = ScriptedAuthorizationPrompt([.denied, .authorized([])])
        let wallet = try WalletFixtures.wallet(prompt: prompt)
        let store = wallet.financeStore(for: WalletFixtures.client)
        #expect(try await store.requestAuthorization() == .denied)
        #expect(try await store.requestAuthorization() == .denied)
        let other = wallet.financeStore(for: "com.example.other")
        #expect(try await other.requestAuthorization() == .authorized)
        #expect(try await other.accounts(query: AccountQuery()).isEmpty)  // "No Accounts"
        #expect(await prompt.asked == 2)
    }

    @Test("revoking takes effect on the next call and invalidates the client's history tokens")
    func revoke() async throws {
        let wallet = try await WalletFixtures.authorizedWallet()
        let store = wallet.financeStore(for: WalletFixtures.client)
        var token: HistoryToken?
        for try await changes in store.accountHistory(isMonitoring: false) { token = changes.newToken }
        #expect(token != nil)

        try await wallet.revoke(WalletFixtures.client)
        #expect(try await store.authorizationStatus() == .denied)
        await #expect(throws: FinanceAccessError.self) { try await store.transactions(query: TransactionQuery()) }

        try await wallet.grant([AccountGrant(accountID: WalletFixtures.checking)], to: WalletFixtures.client)
        let resumed = store.accountHistory(since: token, isMonitoring: false).makeAsyncIterator()
        await #expect(throws: FinanceError.historyTokenInvalid) { try await resumed.next() }
    }
}
