import FinanceData
import Foundation
import Logging
import Synchronization
import TestArchiveTable
import Testing
@_spi(Testing) import WalletOrders
import WalletOutbox

/// Background delivery in process, with a clock the test moves: the planner and the drainer as
/// `orders serve` runs them, HTTPWebhookSender posting to a real local receiver that checks
/// signatures and misbehaves on purpose.
@Suite("Background delivery: windows, signatures, retries, 410, restriction, revocation")
struct BackgroundDeliveryTests {
    static let checking = UUID(uuidString: "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B") ?? UUID()
    static let card = UUID(uuidString: "9C8B7A6F-5E4D-4C3B-8A29-1F0E9D8C7B6A") ?? UUID()
    static let client: ClientIdentifier = "com.example.budget"
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A store with the sample feed, the client authorized for the checking account, a clock at
    /// ``start``, the planner and a drainer sending with a 30 s timeout — beside the whole suite on
    /// two cores the receiver can be left unscheduled for seconds — or 10 s for the tests that
    /// wait for the timeout on purpose (their bounds on elapsed time only prove an end).
    struct Fixture: Sendable {
        let wallet: WalletStore
        let clock: TestClock
        let planner: DeliveryPlannerService
        let drainer: OutboxDrainer<WebhookWork>
        let sender: HTTPWebhookSender
        /// What the drainer logged: a failing expectation shows it.
        let log: DeliveryLog

        var store: FinanceStore { wallet.financeStore(for: BackgroundDeliveryTests.client) }

        func advance(by seconds: TimeInterval) {
            clock.advance(seconds: seconds)
        }

        var time: Date { clock.now() }

        /// One pass of each, as the services would run them.
        @discardableResult
        func settle() async throws -> Int {
            try await planner.planOnce()
            return try await drainer.drainOnce()
        }

        /// A new transaction in `account`, dated after every grant's earliest date.
        func newTransaction(in account: UUID = BackgroundDeliveryTests.checking) async throws {
            var transaction = FinanceFixtureRows.transaction(in: account, at: time)
            transaction.transactionDescription = "Coffee at \(time.timeIntervalSince1970)"
            _ = try await wallet.apply(FinanceBatch(transactions: [transaction]))
        }

        func enable(
            _ types: Set<BackgroundDataType> = [.transactions], _ frequency: UpdateFrequency = .hourly, port: Int,
            path: String = "/hook", receiver: WebhookReceiver
        ) async throws -> EnabledDelivery {
            let enabled = try await store.enableBackgroundDelivery(
                for: types, frequency: frequency, url: "http://127.0.0.1:\(port)\(path)")
            if let secret = enabled.secret { receiver.trust(secret) }
            return enabled
        }

        func endpoint() async throws -> DeliveryEndpoint {
            try #require(try await store.backgroundDeliveryEndpoints().first)
        }
    }

    /// Runs `body` with a new fixture, and closes the sender's connections after it.
    static func withFixture(
        resolver: HostResolver = HostResolver(), allowsPrivate: Bool = true, timeout: Duration = .seconds(30),
        _ body: (Fixture) async throws -> Void
    ) async throws {
        let fixture = try await fixture(resolver: resolver, allowsPrivate: allowsPrivate, timeout: timeout)
        do {
            try await body(fixture)
        } catch {
            await fixture.sender.shutdown()
            throw error
        }
        await fixture.sender.shutdown()
    }

    static func fixture(
        resolver: HostResolver = HostResolver(), allowsPrivate: Bool = true, timeout: Duration = .seconds(30)
    ) async throws -> Fixture {
        let testClock = TestClock(start)
        let clock: @Sendable () -> Date = { testClock.now() }
        let log = DeliveryLog()
        var logger = Logger(label: "test.delivery") { _ in log }
        logger.logLevel = .info
        let targets = WebhookTargets(allowsPrivateAddresses: allowsPrivate, resolver: resolver)
        let configuration = WalletConfiguration(
            backgroundDelivery: BackgroundDeliveryPolicy(targets: targets), clock: clock, logger: logger)
        let directory = try TemporaryDirectory.make("background-delivery")
        let wallet = try WalletStore(path: directory.appendingPathComponent("store.sqlite").path, configuration: configuration)
        try await wallet.importFeed(
            Data(contentsOf: TestArchiveTable.packageRoot.appendingPathComponent("Samples/finance-feed.json")))
        try await wallet.grant([AccountGrant(accountID: checking)], to: client)
        let sender = try HTTPWebhookSender(targets: targets, configuration: .init(timeout: timeout))
        return Fixture(
            wallet: wallet, clock: testClock,
            planner: DeliveryPlannerService(deliveries: wallet.backend.backgroundDelivery, clock: clock, logger: logger),
            drainer: OutboxDrainer(
                deliveries: wallet.backend.backgroundDelivery, access: wallet.backend.access, sender: sender, clock: clock,
                logger: logger),
            sender: sender, log: log)
    }

    @Test(
        "at most once per interval, never when nothing changed, never for an account not shared",
        arguments: [UpdateFrequency.hourly, .daily, .weekly])
    func windows(_ frequency: UpdateFrequency) async throws {
        try await Self.withFixture { fixture in
            let receiver = WebhookReceiver(clock: { fixture.time })
            try await receiver.run { port in
                _ = try await fixture.enable([.transactions], frequency, port: port, receiver: receiver)
                try await fixture.settle()
                #expect(receiver.received.isEmpty, "nothing changed since enabling")

                try await fixture.newTransaction()
                try await fixture.settle()
                #expect(receiver.received.count == 1)

                // Three imports within the interval: nobody is woken before it ends.
                for _ in 0..<3 {
                    fixture.advance(by: frequency.interval / 4)
                    try await fixture.newTransaction()
                    try await fixture.settle()
                }
                fixture.advance(by: frequency.interval / 4 - 1)
                try await fixture.settle()
                #expect(receiver.received.count == 1)
                fixture.advance(by: 1)
                try await fixture.settle()
                #expect(receiver.received.count == 2, "the three changes, in one delivery, once the interval passed")

                // Nothing changed; then a change to the card, which is not shared.
                fixture.advance(by: frequency.interval * 2)
                try await fixture.settle()
                try await fixture.newTransaction(in: Self.card)
                fixture.advance(by: frequency.interval * 2)
                try await fixture.settle()
                #expect(receiver.received.count == 2)
                let deliveries = receiver.received
                #expect(deliveries.allSatisfy { $0.signatureValid && $0.types == ["transactions"] && $0.path == "/hook" })
                #expect(Set(deliveries.map(\.deliveryID)).count == 2)
                #expect(deliveries[0].headers[.contentType] == "application/json")
            }
        }
    }

    @Test("one delivery names every type that changed; the body carries no financial data")
    func oneDeliveryPerTypeSet() async throws {
        try await Self.withFixture { fixture in
            let receiver = WebhookReceiver(clock: { fixture.time })
            try await receiver.run { port in
                _ = try await fixture.enable([.accounts, .accountBalances, .transactions], port: port, receiver: receiver)
                var transaction = FinanceFixtureRows.transaction(in: Self.checking, at: fixture.time)
                transaction.merchantName = "Secret Merchant"
                let balance = FinanceFixtureRows.balance(in: Self.checking, at: fixture.time)
                _ = try await fixture.wallet.apply(FinanceBatch(balances: [balance], transactions: [transaction]))
                try await fixture.settle()
                let delivery = try #require(receiver.received.first)
                #expect(receiver.received.count == 1)
                #expect(delivery.types == ["accountBalances", "transactions"])
                let json = try #require(JSONSerialization.jsonObject(with: delivery.body) as? [String: Any])
                #expect(Set(json.keys) == ["deliveryID", "occurredAt", "types"])
                #expect(!String(decoding: delivery.body, as: UTF8.self).contains("Secret"))
                #expect(delivery.headers[.init("Wallet-Delivery-ID")!] == delivery.deliveryID)
                let state = try await fixture.endpoint()
                #expect(state.lastDelivery?.deliveryID.uuidString == delivery.deliveryID)
                #expect(state.lastDelivery?.types == [.accountBalances, .transactions])
            }
        }
    }

    @Test("500s and timeouts are retried with growing backoff and the same deliveryID; then 200 ends it")
    func retries() async throws {
        try await Self.withFixture(timeout: .seconds(10)) { fixture in
            let receiver = WebhookReceiver(clock: { fixture.time })
            try await receiver.run { port in
                _ = try await fixture.enable(port: port, receiver: receiver)
                receiver.answer(.status(500), .hang, .status(503))
                try await fixture.newTransaction()
                try await fixture.settle()
                #expect(receiver.received.count == 1)

                // Not due before the first backoff (30 s less up to 20 % jitter).
                fixture.advance(by: 23)
                #expect(try await fixture.drainer.drainOnce() == 0)
                fixture.advance(by: 8)
                let hung = ContinuousClock.now
                #expect(try await fixture.drainer.drainOnce() == 1)
                #expect(ContinuousClock.now - hung < .seconds(30), "a receiver that never answers costs the timeout, no more")
                #expect(receiver.received.count == 2)
                // The second backoff is twice the first.
                fixture.advance(by: 47)
                #expect(try await fixture.drainer.drainOnce() == 0)
                fixture.advance(by: 14)
                #expect(try await fixture.drainer.drainOnce() == 1)
                fixture.advance(by: 130)
                #expect(try await fixture.drainer.drainOnce() == 1)
                let deliveries = receiver.received
                #expect(deliveries.count == 4)
                #expect(Set(deliveries.map(\.deliveryID)).count == 1, "a retry is the same delivery")
                let state = try await fixture.endpoint()
                #expect(state.lastDelivery?.deliveryID.uuidString == deliveries[0].deliveryID)
                #expect(state.pendingDeliveries == 0 && state.lastFailure == nil)
            }
        }
    }

    @Test("no try later than 72 hours after the decision: given up, recorded, and its types go out with the next change")
    func givenUp() async throws {
        try await Self.withFixture { fixture in
            let receiver = WebhookReceiver(clock: { fixture.time })
            try await receiver.run { port in
                _ = try await fixture.enable(port: port, receiver: receiver)
                for _ in 0..<40 { receiver.answer(.status(502)) }
                try await fixture.newTransaction()
                try await fixture.settle()
                var attempts = 1
                while try await fixture.endpoint().pendingDeliveries > 0 {
                    fixture.advance(by: 3_600)
                    attempts += try await fixture.drainer.drainOnce()
                }
                // 30 s doubling to 24 h between tries (less jitter), for 72 h.
                #expect((12...17).contains(attempts), "\(attempts) attempts")
                #expect(fixture.time.timeIntervalSince(Self.start) <= 73 * 3_600, "no try after 72 h")
                let failure = try #require(try await fixture.endpoint().lastFailure)
                #expect(failure.reason.hasPrefix("given up after \(attempts) attempts: HTTP 502"))
                fixture.advance(by: 3_600)
                try await fixture.newTransaction()
                try await fixture.settle()
                #expect(receiver.received.count == attempts + 1)
                #expect(receiver.received.last?.deliveryID != failure.deliveryID.uuidString)
            }
        }
    }

    @Test("410 disables the endpoint until it is enabled again; a 400 is recorded and owed; a redirect is not followed")
    func refusals() async throws {
        try await Self.withFixture { fixture in
            let receiver = WebhookReceiver(clock: { fixture.time })
            let elsewhere = WebhookReceiver(clock: { fixture.time })
            try await elsewhere.run { otherPort in
                try await receiver.run { port in
                    _ = try await fixture.enable([.transactions, .accountBalances], port: port, receiver: receiver)
                    receiver.answer(.redirect("http://127.0.0.1:\(otherPort)/stolen"), .status(400), .status(410))
                    try await fixture.newTransaction()
                    try await fixture.settle()
                    var state = try await fixture.endpoint()
                    #expect(state.lastFailure?.reason == "HTTP 302: redirects are not followed", "\(fixture.log.text)")
                    #expect(elsewhere.received.isEmpty)

                    fixture.advance(by: 3_600)
                    try await fixture.newTransaction()
                    try await fixture.settle()
                    state = try await fixture.endpoint()
                    #expect(state.lastFailure?.reason == "HTTP 400")
                    #expect(state.pendingDeliveries == 0 && state.disabled == nil)

                    // The next change is a balance; the failed transactions go out with it.
                    fixture.advance(by: 3_600)
                    _ = try await fixture.wallet.apply(
                        FinanceBatch(balances: [FinanceFixtureRows.balance(in: Self.checking, at: fixture.time)]))
                    try await fixture.settle()
                    #expect(receiver.received.last?.types == ["accountBalances", "transactions"])
                    state = try await fixture.endpoint()
                    #expect(state.disabled?.reason == "HTTP 410")

                    fixture.advance(by: 3_600)
                    try await fixture.newTransaction()
                    try await fixture.settle()
                    #expect(receiver.received.count == 3, "disabled: nothing more")
                    let again = try await fixture.enable([.transactions], port: port, receiver: receiver)
                    #expect(again.secret == nil && again.endpoint.disabled == nil)
                    try await fixture.settle()
                    #expect(receiver.received.count == 4)
                }
            }
        }
    }

    @Test("a slow or endless answer body costs the timeout at most; a 2xx head is what counts")
    func slowAndLargeBodies() async throws {
        try await Self.withFixture(timeout: .seconds(10)) { fixture in
            let receiver = WebhookReceiver(clock: { fixture.time })
            try await receiver.run { port in
                _ = try await fixture.enable(port: port, receiver: receiver)
                receiver.answer(.slowBody, .largeBody(8 << 20))
                try await fixture.newTransaction()
                let started = ContinuousClock.now
                try await fixture.settle()
                #expect(ContinuousClock.now - started < .seconds(30), "an endless body is dropped at the timeout")
                #expect(try await fixture.endpoint().lastDelivery != nil)
                fixture.advance(by: 3_600)
                try await fixture.newTransaction()
                try await fixture.settle()
                #expect(receiver.received.count == 2)
                #expect(try await fixture.endpoint().lastDelivery?.deliveryID.uuidString == receiver.received[1].deliveryID)
            }
        }
    }

    @Test("restriction pauses sending and deciding without counting attempts; lifting it resumes")
    func restriction() async throws {
        try await Self.withFixture { fixture in
            let receiver = WebhookReceiver(clock: { fixture.time })
            try await receiver.run { port in
                _ = try await fixture.enable(port: port, receiver: receiver)
                try await fixture.newTransaction()
                try await fixture.planner.planOnce()
                try await fixture.wallet.setRestricted(.financialData, true)
                #expect(try await fixture.drainer.drainOnce() == 1)  // postponed
                fixture.advance(by: 3_600)
                try await fixture.settle()
                #expect(receiver.received.isEmpty)
                try await fixture.wallet.setRestricted(.financialData, false)
                fixture.advance(by: 61)
                try await fixture.settle()
                #expect(receiver.received.count == 1)
                #expect(try await fixture.endpoint().pendingDeliveries == 0, "\(fixture.log.text)")
            }
        }
    }

    @Test("revoking the client removes its endpoints and the deliveries not yet sent")
    func revocation() async throws {
        try await Self.withFixture { fixture in
            let receiver = WebhookReceiver(clock: { fixture.time })
            try await receiver.run { port in
                _ = try await fixture.enable(port: port, receiver: receiver)
                try await fixture.newTransaction()
                try await fixture.planner.planOnce()
                try await fixture.wallet.revoke(Self.client)
                #expect(try await fixture.drainer.drainOnce() == 0)
                #expect(receiver.received.isEmpty)
                #expect(try await fixture.wallet.deliveryEndpoints().isEmpty)
                await #expect(throws: FinanceAccessError.self) {
                    try await fixture.enable(port: port, receiver: receiver)
                }
            }
        }
    }

    @Test("a name that resolves elsewhere after registering is checked again before each send")
    func rebinding() async throws {
        let answers = Mutex(["hooks.example": [NetworkAddress("93.184.216.34")!]])
        let resolver = HostResolver { host in answers.withLock { $0[host] ?? [] } }
        try await Self.withFixture(resolver: resolver, allowsPrivate: false) { fixture in
            let enabled = try await fixture.store.enableBackgroundDelivery(
                for: [.transactions], frequency: .hourly, url: "https://hooks.example/wallet")
            #expect(enabled.secret != nil)
            answers.withLock { $0["hooks.example"] = [NetworkAddress("127.0.0.1")!] }
            try await fixture.newTransaction()
            try await fixture.settle()
            let failure = try #require(try await fixture.endpoint().lastFailure)
            #expect(
                failure.reason == "deliveries may not go to this URL: hooks.example resolves to 127.0.0.1, a loopback address")
            answers.withLock { $0["hooks.example"] = [NetworkAddress("93.184.216.34")!, NetworkAddress("10.1.2.3")!] }
            await #expect(
                throws: BackgroundDeliveryError.urlNotAllowed("hooks.example resolves to 10.1.2.3, a private-network address")
            ) {
                try await fixture.store.enableBackgroundDelivery(
                    for: [.transactions], frequency: .hourly, url: "https://hooks.example/b")
            }
        }
    }
}

/// Rows for the tests above: a transaction or balance of an account, dated `at`.
enum FinanceFixtureRows {
    static func transaction(in account: UUID, at date: Date) -> Transaction {
        Transaction(
            id: UUID(), accountID: account, transactionAmount: CurrencyAmount(amount: 3.5, currencyCode: "EUR"),
            creditDebitIndicator: .debit, transactionDescription: "Coffee", originalTransactionDescription: "COFFEE",
            merchantName: "Café", transactionType: .pointOfSale, status: .booked, transactionDate: date)
    }

    static func balance(in account: UUID, at date: Date) -> AccountBalance {
        AccountBalance(
            id: UUID(), accountID: account,
            currentBalance: .available(
                Balance(amount: CurrencyAmount(amount: 100, currencyCode: "EUR"), asOfDate: date, creditDebitIndicator: .credit)))
    }
}

/// A log handler keeping every message, for expectations to show.
final class DeliveryLog: LogHandler, @unchecked Sendable {
    private let lines = Mutex<[String]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.withLock { $0.append("\(event.level): \(event.message)") }
    }

    var text: String { lines.withLock { $0.joined(separator: "\n") } }
}
