import FinanceData
import Foundation
import StorageContract
import Testing
import WalletCore
import WalletStorage

/// Background delivery's storage, the same on every backend: endpoints, decisions derived from
/// the change log with grants applied, windows, the outbox's leases and outcomes, revocation.
@Suite("Contract: background delivery (endpoints, decisions, outbox)")
struct BackgroundDeliveryContractTests {
    static let start = FinanceFixtures.base
    static let client: ClientIdentifier = "com.example.budget"
    static let other: ClientIdentifier = "com.example.other"

    /// A backend with two accounts, the client authorized for `shared` from `earliest` on.
    struct Fixture {
        let backend: any StorageBackend
        let shared = UUID()
        let hidden = UUID()
        let earliest = FinanceFixtures.base.addingTimeInterval(10 * 86_400)

        init(_ factory: BackendFactory) async throws {
            backend = try await factory.make()
            _ = try await backend.finance.apply(
                FinanceBatch(accounts: [FinanceFixtures.asset(shared), FinanceFixtures.asset(hidden, name: "Savings")]),
                at: start)
            _ = try await backend.access.recordDecision(
                .authorized([AccountGrant(accountID: shared, earliestDate: earliest)]), for: client, at: start)
        }

        var deliveries: any BackgroundDeliveryRepository { backend.backgroundDelivery }

        func enable(
            _ types: Set<BackgroundDataType> = [.transactions], _ frequency: UpdateFrequency = .hourly,
            url: String = "https://budget.example/hook", client: ClientIdentifier = client, at seconds: TimeInterval = 0
        ) async throws -> EnabledDelivery {
            try await deliveries.enable(
                types, frequency: frequency, url: try WebhookURL(url), for: client, secret: "wds_secret-\(url)",
                maximumEndpoints: 2, at: start.addingTimeInterval(seconds))
        }

        /// One transaction in `account`, dated `daysAfterEarliest` days after the grant's
        /// earliest date (negative: before it).
        func transaction(in account: UUID, daysAfterEarliest days: Double = 1) -> Transaction {
            var transaction = FinanceFixtures.transactions(
                count: 1, accounts: [account], seed: UInt64.random(in: 1...UInt64.max))[0]
            transaction.transactionDate = earliest.addingTimeInterval(days * 86_400)
            transaction.postedDate = nil
            return transaction
        }

        func importing(_ batch: FinanceBatch, at seconds: TimeInterval) async throws {
            _ = try await backend.finance.apply(batch, at: start.addingTimeInterval(seconds), compactingBefore: nil)
        }

        func plan(at seconds: TimeInterval) async throws -> DeliveryPlanReport {
            try await deliveries.planDeliveries(at: start.addingTimeInterval(seconds), scanLimit: 1_000)
        }

        func claim(at seconds: TimeInterval, lease: TimeInterval = 60) async throws -> [PendingDelivery] {
            try await deliveries.claimDeliveries(
                dueAt: start.addingTimeInterval(seconds), leaseEnd: start.addingTimeInterval(seconds + lease), limit: 10)
        }
    }

    @Test(
        "enable creates an endpoint with its secret once; again changes the frequency; the cap holds",
        arguments: BackendFactory.all)
    func endpoints(_ factory: BackendFactory) async throws {
        let fixture = try await Fixture(factory)
        let first = try await fixture.enable([.transactions, .accounts])
        #expect(first.secret == "wds_secret-https://budget.example/hook")
        #expect(first.endpoint.frequencies == [.transactions: .hourly, .accounts: .hourly])
        #expect(first.endpoint.client == Self.client && first.endpoint.pendingDeliveries == 0)

        let again = try await fixture.enable([.transactions, .accountBalances], .daily)
        #expect(again.secret == nil)
        #expect(again.endpoint.id == first.endpoint.id)
        #expect(again.endpoint.frequencies == [.transactions: .daily, .accounts: .hourly, .accountBalances: .daily])

        let second = try await fixture.enable(url: "https://budget.example/other", at: 1)
        #expect(second.secret != nil && second.endpoint.id != first.endpoint.id)
        await #expect(throws: BackgroundDeliveryError.tooManyEndpoints(limit: 2)) {
            try await fixture.enable(url: "https://budget.example/third")
        }
        #expect(try await fixture.deliveries.endpoints(for: Self.client).map(\.id) == [first.endpoint.id, second.endpoint.id])
        #expect(try await fixture.deliveries.endpoints(for: Self.other).isEmpty)
        #expect(try await fixture.deliveries.endpoint(second.endpoint.id)?.url.text == "https://budget.example/other")

        try await fixture.deliveries.disable([.transactions], for: Self.client)
        let left = try await fixture.deliveries.endpoints(for: nil)
        #expect(left.map(\.id) == [first.endpoint.id])  // the second had only transactions
        #expect(left.first?.frequencies == [.accounts: .hourly, .accountBalances: .daily])
        try await fixture.deliveries.disableAll(for: Self.client)
        #expect(try await fixture.deliveries.endpoints(for: nil).isEmpty)
    }

    @Test("a change the client may see is decided once; one it may not see, or nothing, never", arguments: BackendFactory.all)
    func decisions(_ factory: BackendFactory) async throws {
        let fixture = try await Fixture(factory)
        let endpoint = try await fixture.enable().endpoint
        #expect(try await fixture.plan(at: 1).planned == 0)  // nothing changed since enabling

        // An account not shared, and a date before the grant's earliest: nobody is woken.
        try await fixture.importing(FinanceBatch(transactions: [fixture.transaction(in: fixture.hidden)]), at: 2)
        try await fixture.importing(
            FinanceBatch(transactions: [fixture.transaction(in: fixture.shared, daysAfterEarliest: -1)]), at: 3)
        let unseen = try await fixture.plan(at: 4)
        #expect(unseen.scanned == 2 && unseen.planned == 0)

        // A visible one: one delivery, naming transactions.
        try await fixture.importing(FinanceBatch(transactions: [fixture.transaction(in: fixture.shared)]), at: 5)
        #expect(try await fixture.plan(at: 6).planned == 1)
        #expect(try await fixture.plan(at: 7).planned == 0)
        let claimed = try await fixture.claim(at: 8)
        #expect(claimed.count == 1)
        #expect(claimed.first?.types == [.transactions] && claimed.first?.endpointID == endpoint.id)
        #expect(claimed.first?.secret == "wds_secret-https://budget.example/hook")
        #expect(claimed.first?.occurredAt == Self.start.addingTimeInterval(6))
    }

    @Test(
        "at most once per interval: changes within it wait for its end; a new type set is one delivery",
        arguments: BackendFactory.all)
    func windows(_ factory: BackendFactory) async throws {
        let fixture = try await Fixture(factory)
        _ = try await fixture.enable([.transactions, .accounts])
        try await fixture.importing(FinanceBatch(transactions: [fixture.transaction(in: fixture.shared)]), at: 0)
        #expect(try await fixture.plan(at: 1).planned == 1)
        let first = try await fixture.claim(at: 1)
        try await fixture.deliveries.recordDelivered(try #require(first.first).deliveryID, at: Self.start.addingTimeInterval(2))

        // Three imports within the hour, one of them changing the shared account too.
        let account = FinanceFixtures.asset(fixture.shared, name: "Everyday (renamed)")
        try await fixture.importing(FinanceBatch(transactions: [fixture.transaction(in: fixture.shared)]), at: 600)
        try await fixture.importing(FinanceBatch(accounts: [account]), at: 1_200)
        try await fixture.importing(FinanceBatch(transactions: [fixture.transaction(in: fixture.shared)]), at: 1_800)
        for seconds in [601.0, 1_201, 1_801, 3_600] { #expect(try await fixture.plan(at: seconds).planned == 0) }
        // The endpoint's hour since its last delivery: one delivery naming both changed types.
        #expect(try await fixture.plan(at: 3_601).planned == 1)
        let second = try #require(try await fixture.claim(at: 3_601).first)
        #expect(second.types == [.accounts, .transactions])
        try await fixture.deliveries.recordDelivered(second.deliveryID, at: Self.start.addingTimeInterval(3_602))
        #expect(try await fixture.plan(at: 9_000).planned == 0)  // nothing changed since
        let state = try #require(try await fixture.deliveries.endpoints(for: Self.client).first)
        #expect(state.lastDelivery?.deliveryID == second.deliveryID)
        #expect(state.lastDelivery?.types == [.accounts, .transactions])
    }

    @Test(
        "a lease keeps a claimed delivery from others; retries count; failures owe; 410 disables", arguments: BackendFactory.all)
    func outbox(_ factory: BackendFactory) async throws {
        let fixture = try await Fixture(factory)
        _ = try await fixture.enable([.transactions, .accountBalances])
        try await fixture.importing(FinanceBatch(transactions: [fixture.transaction(in: fixture.shared)]), at: 0)
        #expect(try await fixture.plan(at: 0).planned == 1)
        let claimed = try #require(try await fixture.claim(at: 0, lease: 60).first)
        #expect(try await fixture.claim(at: 30).isEmpty)
        let again = try #require(try await fixture.claim(at: 61).first)  // the lease ended: a crash
        #expect(again.deliveryID == claimed.deliveryID && again.attempts == 0)

        try await fixture.deliveries.recordRetry(
            again.deliveryID, next: Self.start.addingTimeInterval(200), reason: "HTTP 503", at: Self.start.addingTimeInterval(62))
        #expect(try await fixture.claim(at: 199).isEmpty)
        let retried = try #require(try await fixture.claim(at: 200).first)
        #expect(retried.attempts == 1)
        #expect(try await fixture.deliveries.pendingDeliveryCount() == 1)

        // A 4xx: recorded, and its types owed to the next delivery, which a change decides.
        try await fixture.deliveries.recordFailed(retried.deliveryID, reason: "HTTP 400", at: Self.start.addingTimeInterval(201))
        #expect(try await fixture.deliveries.pendingDeliveryCount() == 0)
        var state = try #require(try await fixture.deliveries.endpoints(for: Self.client).first)
        #expect(state.lastFailure?.deliveryID == retried.deliveryID && state.lastFailure?.reason == "HTTP 400")
        #expect(try await fixture.plan(at: 7_200).planned == 0)
        let balance = AccountBalance(
            id: UUID(), accountID: fixture.shared,
            currentBalance: .available(
                Balance(
                    amount: CurrencyAmount(amount: 10, currencyCode: "EUR"), asOfDate: fixture.earliest.addingTimeInterval(60),
                    creditDebitIndicator: .credit)))
        try await fixture.importing(FinanceBatch(balances: [balance]), at: 7_200)
        #expect(try await fixture.plan(at: 7_201).planned == 1)
        let owed = try #require(try await fixture.claim(at: 7_201).first)
        #expect(owed.types == [.accountBalances, .transactions])

        // 410: the endpoint is disabled, nothing else is decided for it until enabled again.
        try await fixture.deliveries.recordGone(owed.deliveryID, reason: "HTTP 410", at: Self.start.addingTimeInterval(7_202))
        state = try #require(try await fixture.deliveries.endpoints(for: Self.client).first)
        #expect(state.disabled?.reason == "HTTP 410" && state.pendingDeliveries == 0)
        try await fixture.importing(FinanceBatch(transactions: [fixture.transaction(in: fixture.shared)]), at: 20_000)
        #expect(try await fixture.plan(at: 20_001).planned == 0)
        let enabled = try await fixture.enable([.transactions])
        #expect(enabled.endpoint.disabled == nil && enabled.secret == nil)
        #expect(try await fixture.plan(at: 20_002).planned == 1)
    }

    @Test(
        "restriction pauses deciding and lifting it resumes; revoking the client removes everything",
        arguments: BackendFactory.all)
    func restrictionAndRevocation(_ factory: BackendFactory) async throws {
        let fixture = try await Fixture(factory)
        _ = try await fixture.enable([.transactions])
        try await fixture.backend.access.setRestricted(.financialData, true, at: Self.start)
        try await fixture.importing(FinanceBatch(transactions: [fixture.transaction(in: fixture.shared)]), at: 0)
        let paused = try await fixture.plan(at: 1)
        #expect(paused.restricted && paused.planned == 0 && paused.scanned == 1)
        try await fixture.backend.access.setRestricted(.financialData, false, at: Self.start)
        #expect(try await fixture.plan(at: 2).planned == 1)

        try await fixture.backend.access.revoke(Self.client, accounts: [], at: Self.start.addingTimeInterval(3))
        #expect(try await fixture.deliveries.endpoints(for: nil).isEmpty)
        #expect(try await fixture.deliveries.pendingDeliveryCount() == 0)
        #expect(try await fixture.claim(at: 4).isEmpty)
    }

    @Test(
        "sharing an account wakes that client's accounts type alone; compacted records count as changes",
        arguments: BackendFactory.all)
    func accessChangesAndCompaction(_ factory: BackendFactory) async throws {
        let fixture = try await Fixture(factory)
        _ = try await fixture.enable([.accounts])
        _ = try await fixture.backend.access.recordDecision(.authorized([]), for: Self.other, at: Self.start)
        _ = try await fixture.enable([.accounts], client: Self.other)
        try await fixture.backend.access.grant(
            [AccountGrant(accountID: fixture.hidden)], to: Self.client, at: Self.start.addingTimeInterval(1))
        #expect(try await fixture.plan(at: 2).planned == 1)
        let woken = try await fixture.claim(at: 2)
        #expect(woken.map(\.client) == [Self.client] && woken.first?.types == [.accounts])
        try await fixture.deliveries.recordDelivered(try #require(woken.first).deliveryID, at: Self.start.addingTimeInterval(3))

        // The other client's position falls behind the horizon: it may have missed a change.
        try await fixture.importing(FinanceBatch(transactions: [fixture.transaction(in: fixture.hidden)]), at: 10)
        _ = try await fixture.backend.finance.compactHistory(before: Self.start.addingTimeInterval(100))
        let report = try await fixture.plan(at: 200)
        #expect(report.planned == 1)
        #expect(try await fixture.claim(at: 200).map(\.client) == [Self.other])
    }

    @Test(
        "the access a planner keeps between passes follows revocations and grants made by another instance",
        arguments: BackendFactory.all)
    func accessChangedElsewhere(_ factory: BackendFactory) async throws {
        let (planner, other) = try await factory.makeTwo()
        let account = UUID()
        _ = try await planner.finance.apply(FinanceBatch(accounts: [FinanceFixtures.asset(account)]), at: Self.start)
        _ = try await other.access.recordDecision(
            .authorized([AccountGrant(accountID: account)]), for: Self.client, at: Self.start)
        _ = try await planner.backgroundDelivery.enable(
            [.transactions], frequency: .hourly, url: try WebhookURL("https://budget.example/hook"), for: Self.client,
            secret: "wds_secret", maximumEndpoints: 1, at: Self.start)
        // Each round: one transaction in the account an hour later, one pass, the delivery sent.
        func round(_ hour: Double) async throws -> Int {
            let time = Self.start.addingTimeInterval(hour * 3_601)
            var transaction = FinanceFixtures.transactions(count: 1, accounts: [account], seed: UInt64(hour) + 1)[0]
            transaction.transactionDate = time
            _ = try await other.finance.apply(FinanceBatch(transactions: [transaction]), at: time, compactingBefore: nil)
            let planned = try await planner.backgroundDelivery.planDeliveries(at: time, scanLimit: 1_000).planned
            for delivery in try await planner.backgroundDelivery.claimDeliveries(dueAt: time, leaseEnd: time, limit: 10) {
                try await planner.backgroundDelivery.recordDelivered(delivery.deliveryID, at: time)
            }
            return planned
        }
        #expect(try await round(1) == 1)
        try await other.access.revoke(Self.client, accounts: [account], at: Self.start.addingTimeInterval(3_700))
        #expect(try await round(2) == 0)
        try await other.access.grant(
            [AccountGrant(accountID: account)], to: Self.client, at: Self.start.addingTimeInterval(7_300))
        #expect(try await round(3) == 1)
        try await other.access.grant(
            [AccountGrant(accountID: account, earliestDate: Self.start.addingTimeInterval(365 * 86_400))], to: Self.client,
            at: Self.start.addingTimeInterval(11_000))
        #expect(try await round(4) == 0)
    }

    @Test("many deciders at once decide each change once", arguments: BackendFactory.all)
    func concurrentDeciders(_ factory: BackendFactory) async throws {
        let fixture = try await Fixture(factory)
        _ = try await fixture.enable([.transactions])
        try await fixture.importing(FinanceBatch(transactions: [fixture.transaction(in: fixture.shared)]), at: 0)
        let planned = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 { group.addTask { try await fixture.plan(at: 1).planned } }
            return try await group.reduce(0, +)
        }
        #expect(planned == 1)
        #expect(try await fixture.deliveries.pendingDeliveryCount() == 1)
    }
}
