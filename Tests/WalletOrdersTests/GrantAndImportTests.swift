import Foundation
import TestArchiveTable
import Testing
@_spi(Testing) import WalletOrders

@Suite("Grants filter every read; imports are all or nothing; orders need entitlements")
struct GrantAndImportTests {
    @Test("queries return only shared accounts, and nothing before an account's earliest date")
    func grantFiltering() async throws {
        let earliest = WalletFixtures.date("2026-11-08T00:00:00Z")
        let wallet = try WalletFixtures.wallet()
        try await wallet.importFeed(WalletFixtures.feed())
        try await wallet.grant(
            [AccountGrant(accountID: WalletFixtures.checking, earliestDate: earliest)], to: WalletFixtures.client)
        let store = wallet.financeStore(for: WalletFixtures.client)

        #expect(try await store.accounts(query: AccountQuery()).map(\.id) == [WalletFixtures.checking])
        let transactions = try await store.transactions(query: TransactionQuery())
        #expect(transactions.map(\.transactionDescription) == ["Groceries", "Coffee", "Dinner"])
        #expect(transactions.allSatisfy { $0.transactionDate >= earliest && $0.accountID == WalletFixtures.checking })
        // The same through a predicate that cannot be translated (in-memory path).
        let described = try await store.transactions(
            query: TransactionQuery(predicate: #Predicate { $0.transactionDescription.contains("e") }))
        #expect(described.map(\.transactionDescription) == ["Groceries", "Coffee", "Dinner"])
        #expect(try await store.accountBalances(query: AccountBalanceQuery()).map(\.accountID) == [WalletFixtures.checking])

        let history = store.transactionHistory(forAccountID: WalletFixtures.checking, isMonitoring: false)
        var inserted: [String] = []
        for try await changes in history { inserted += changes.inserted.map(\.transactionDescription) }
        #expect(Set(inserted) == ["Groceries", "Coffee", "Dinner"])
        let unshared = store.transactionHistory(forAccountID: WalletFixtures.card, isMonitoring: false).makeAsyncIterator()
        await #expect(throws: FinanceAccessError.unknownAccount(WalletFixtures.card)) { try await unshared.next() }
    }

    @Test("Apple's predicate helpers, sort descriptors, offset and limit")
    func helpers() async throws {
        let wallet = try await WalletFixtures.authorizedWallet()
        let store = wallet.financeStore(for: WalletFixtures.client)
        let pending = try await store.transactions(
            query: TransactionQuery(predicate: TransactionQuery.predicate(forStatuses: [.pending])))
        #expect(pending.map(\.transactionDescription) == ["Coffee", "Dinner"])
        let restaurants = try await store.transactions(
            query: TransactionQuery(
                predicate: TransactionQuery.predicate(forMerchantCategoryCodes: [
                    MerchantCategoryCode(rawValue: 5812), MerchantCategoryCode(rawValue: 5814),
                ])))
        #expect(Set(restaurants.map(\.transactionDescription)) == ["Coffee", "Dinner"])
        let deposits = try await store.transactions(
            query: TransactionQuery(predicate: TransactionQuery.predicate(forTransactionTypes: [.directDeposit, .standingOrder])))
        #expect(Set(deposits.map(\.transactionDescription)) == ["Salary November", "Rent"])
        let page = try await store.transactions(
            query: TransactionQuery(sortDescriptors: [SortDescriptor(\.transactionDate, order: .reverse)], limit: 2, offset: 1))
        // Newest first across both accounts: Dinner, Coffee, Taxi, Hotel…; skip one, take two.
        #expect(page.map(\.transactionDescription) == ["Coffee", "Taxi"])
        let available = try await store.accountBalances(
            query: AccountBalanceQuery(
                predicate: AccountBalanceQuery.predicate(availableSince: WalletFixtures.date("2026-11-20T00:00:00Z"))))
        #expect(available.map(\.accountID) == [WalletFixtures.checking])
        let booked = try await store.accountBalances(
            query: AccountBalanceQuery(
                predicate: AccountBalanceQuery.predicate(
                    bookedSince: WalletFixtures.date("2026-11-01T00:00:00Z"), until: WalletFixtures.date("2026-11-20T08:00:00Z")))
        )
        #expect(booked.isEmpty)  // the upper bound is exclusive
    }

    @Test("amounts are never negative; the sign comes from the indicator and the account kind")
    func signs() async throws {
        let wallet = try await WalletFixtures.authorizedWallet()
        let store = wallet.financeStore(for: WalletFixtures.client)
        let accounts = try await store.accounts(query: AccountQuery())
        let kinds = Dictionary(uniqueKeysWithValues: accounts.map { ($0.id, $0.kind) })
        let transactions = try await store.transactions(query: TransactionQuery())
        #expect(transactions.allSatisfy { $0.transactionAmount.amount > 0 })
        let salary = try #require(transactions.first { $0.transactionDescription == "Salary November" })
        let rent = try #require(transactions.first { $0.transactionDescription == "Rent" })
        let hotel = try #require(transactions.first { $0.transactionDescription == "Hotel New York" })
        #expect(salary.signedAmount(for: try #require(kinds[salary.accountID])) == 3200)
        #expect(rent.signedAmount(for: .asset) == -950)
        #expect(hotel.signedAmount(for: try #require(kinds[hotel.accountID])) == Decimal(string: "389.70"))  // owed goes up
        #expect(hotel.foreignCurrencyAmount == CurrencyAmount(amount: 420, currencyCode: "USD"))
        let cardBalance = try #require(
            try await store.accountBalances(query: AccountBalanceQuery()).first { $0.accountID == WalletFixtures.card })
        #expect(cardBalance.booked?.signedAmount(for: .liability) == Decimal(string: "412.30"))
    }

    /// What an import leaves behind: the accounts and the last change recorded.
    static func footprint(_ wallet: WalletStore) async throws -> [Int64] {
        let bounds = try await wallet.backend.finance.historyBounds()
        return [Int64(try await wallet.backend.finance.accountChoices().count), bounds.latest]
    }

    @Test(
        "a feed with one bad record is rejected whole, naming the record; nothing is stored",
        arguments: [
            (
                #"{"accounts": [{"id": "00000000-0000-4000-8000-000000000001", "type": "asset", "displayName": "A", "institutionName": "B", "currencyCode": "EUR"}], "transactions": [{"id": "00000000-0000-4000-8000-000000000002", "accountID": "00000000-0000-4000-8000-00000000FFFF", "transactionAmount": {"amount": "1.00", "currencyCode": "EUR"}, "creditDebitIndicator": "debit", "transactionDescription": "x", "transactionType": "fee", "status": "booked", "transactionDate": "2026-11-01T00:00:00Z"}]}"#,
                "feed.unknownAccount",
                "transaction 00000000-0000-4000-8000-000000000002 refers to account 00000000-0000-4000-8000-00000000FFFF"
            ),
            (
                #"{"transactions": [{"id": "00000000-0000-4000-8000-000000000002", "accountID": "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B", "transactionAmount": {"amount": "-1.00", "currencyCode": "EUR"}, "creditDebitIndicator": "debit", "transactionDescription": "x", "transactionType": "fee", "status": "booked", "transactionDate": "2026-11-01T00:00:00Z"}]}"#,
                "feed.inconsistentRecord",
                "transactions[0] (id 00000000-0000-4000-8000-000000000002): transactionAmount.amount is negative"
            ),
            (
                #"{"transactions": [{"id": "00000000-0000-4000-8000-000000000002", "accountID": "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B", "transactionAmount": {"amount": "1.00", "currencyCode": "EUR"}, "creditDebitIndicator": "debit", "transactionDescription": "x", "transactionType": "fee", "status": "done", "transactionDate": "2026-11-01T00:00:00Z"}]}"#,
                "feed.invalid", "transactions[0].status: 'done' is not one of authorized, booked, memo, pending, rejected"
            ),
            (
                #"{"transactions": [{"id": "00000000-0000-4000-8000-000000000002", "accountID": "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B", "transactionAmount": {"amount": "1.00", "currencyCode": "EUR"}, "creditDebitIndicator": "debit", "transactionDescription": "x", "transactionType": "fee", "status": "booked", "transactionDate": "yesterday"}]}"#,
                "feed.inconsistentRecord",
                "transactions[0] (id 00000000-0000-4000-8000-000000000002): transactionDate 'yesterday' is not an RFC 3339"
            ),
            (
                #"{"transactions": [{"id": "00000000-0000-4000-8000-000000000002", "accountID": "9C8B7A6F-5E4D-4C3B-8A29-1F0E9D8C7B6A", "transactionAmount": {"amount": "1.00", "currencyCode": "USD"}, "creditDebitIndicator": "debit", "transactionDescription": "x", "transactionType": "fee", "status": "booked", "transactionDate": "2026-11-01T00:00:00Z"}]}"#,
                "feed.inconsistentRecord", "its amount is in USD, its account in EUR"
            ),
            (
                #"{"balances": [{"id": "00000000-0000-4000-8000-000000000003", "accountID": "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B"}]}"#,
                "feed.inconsistentRecord",
                "balances[0] (id 00000000-0000-4000-8000-000000000003): a balance needs available, booked, or both"
            ),
            (#"{"accounts": [{"id": "x"}]}"#, "feed.invalid", "accounts[0].id"),
            (#"{"accounts": "#, "feed.invalid", "the feed is not valid JSON"),
        ])
    func allOrNothing(_ feed: String, _ code: String, _ message: String) async throws {
        // Every account and every change record (each stored transaction records one).
        let wallet = try await WalletFixtures.authorizedWallet()
        let before = try await Self.footprint(wallet)
        // A good record before the bad one must not be kept either.
        await #expect {
            try await wallet.importFeed(Data(feed.utf8))
        } throws: { error in
            guard let error = error as? FinanceDataError else { return false }
            return error.code == code && error.description.contains(message)
        }
        let after = try await Self.footprint(wallet)
        #expect(before == after)
    }

    @Test("importing the same feed again changes nothing and records no change")
    func idempotentImport() async throws {
        let wallet = try await WalletFixtures.authorizedWallet()
        let again = try await wallet.importFeed(WalletFixtures.feed())
        #expect(again.transactions.unchanged == 7 && again.transactions.inserted == 0 && again.transactions.updated == 0)
        #expect(again.accounts.unchanged == 2 && again.balances.unchanged == 2)
    }

    @Test("orders: saving needs an entitlement to the type; checking answers notFound without one")
    func orderEntitlements() async throws {
        let wallet = try WalletFixtures.wallet()
        let store = wallet.financeStore(for: WalletFixtures.client)
        let archive = try TestOrderArchive.make(orderIdentifier: "E-1")
        let id = FullyQualifiedOrderIdentifier(orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier, orderIdentifier: "E-1")
        await #expect(
            throws: FinanceAccessError.notEntitled(
                WalletFixtures.client, orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier)
        ) {
            try await store.saveOrder(signedArchive: archive)
        }
        #expect(try await wallet.orders.orders().isEmpty)

        try await wallet.entitle(WalletFixtures.client, toOrderTypes: [TestOrderArchive.orderTypeIdentifier])
        #expect(try await store.saveOrder(signedArchive: archive) == .added)
        #expect(try await store.containsOrder(matching: id) == .exists)
        let other = wallet.financeStore(for: "com.example.other")
        #expect(try await other.containsOrder(matching: id) == .notFound)
        try await wallet.removeEntitlements(WalletFixtures.client, toOrderTypes: [TestOrderArchive.orderTypeIdentifier])
        #expect(try await store.containsOrder(matching: id) == .notFound)
    }

    @Test("models encode enums by case name and amounts as decimal strings")
    func codable() throws {
        let transaction = Transaction(
            id: WalletFixtures.checking, accountID: WalletFixtures.card,
            transactionAmount: CurrencyAmount(amount: Decimal(string: "12.50")!, currencyCode: "EUR"),
            creditDebitIndicator: .debit, transactionDescription: "x", originalTransactionDescription: "x",
            merchantCategoryCode: MerchantCategoryCode(rawValue: 5411), transactionType: .pointOfSale, status: .pending,
            transactionDate: Date(timeIntervalSince1970: 0))
        let json = String(decoding: try JSONEncoder().encode(transaction), as: UTF8.self)
        #expect(json.contains(#""status":"pending""#))
        #expect(json.contains(#""transactionType":"pointOfSale""#))
        #expect(json.contains(#""amount":"12.5""#))
        #expect(json.contains(#""merchantCategoryCode":5411"#))
        #expect(try JSONDecoder().decode(Transaction.self, from: Data(json.utf8)) == transaction)
        let account = Account.liability(
            LiabilityAccount(id: WalletFixtures.card, displayName: "Card", institutionName: "Bank", currencyCode: "EUR"))
        let accountJSON = try JSONEncoder().encode(account)
        #expect(String(decoding: accountJSON, as: UTF8.self).contains(#""type":"liability""#))
        #expect(try JSONDecoder().decode(Account.self, from: accountJSON) == account)
        #expect(MerchantCategoryCode("5411") == MerchantCategoryCode(rawValue: 5411))
        #expect(MerchantCategoryCode("12345") == nil)
    }
}
