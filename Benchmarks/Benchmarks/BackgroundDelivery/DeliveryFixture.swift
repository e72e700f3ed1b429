import FinanceData
import Foundation
import Logging
import WalletOutbox
import WalletOrders

/// Stores for the background-delivery benchmarks: `accounts` accounts each with a few existing
/// transactions, and `clients` clients granted every account, each with one endpoint for every
/// data type, hourly. The clock is moved past the hour before each round, so every round that
/// changes something decides one delivery per endpoint (the most the planner ever does).
struct DeliveryFixture: Sendable {
    static let accounts = 10
    let wallet: WalletStore
    let clock: BenchmarkClock
    let planner: DeliveryPlannerService
    private let rounds = Counter()

    static func accountID(_ index: Int) -> UUID { uuid(0xA0, index) }

    static func uuid(_ prefix: UInt8, _ index: Int) -> UUID {
        let n = UInt32(index)
        return UUID(
            uuid: (
                prefix, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, UInt8(truncatingIfNeeded: n >> 24),
                UInt8(truncatingIfNeeded: n >> 16),
                UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)
            ))
    }

    /// A new store (in a new temporary folder) with `clients` endpoints at `receiverPort`.
    static func make(clients: Int, receiverPort: Int = 9) async throws -> DeliveryFixture {
        let clock = BenchmarkClock()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wallet-orders-benchmarks/delivery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var logger = Logger(label: "benchmark")
        logger.logLevel = .error
        let configuration = WalletConfiguration(
            backgroundDelivery: BackgroundDeliveryPolicy(targets: WebhookTargets(allowsPrivateAddresses: true)),
            clock: { clock.now }, logger: logger)
        let wallet = try WalletStore(path: folder.appendingPathComponent("store.sqlite").path, configuration: configuration)
        let accounts = (0..<accounts).map { index in
            Account.asset(
                AssetAccount(
                    id: accountID(index), displayName: "Account \(index)", institutionName: "Benchmark Bank",
                    currencyCode: "EUR", openingDate: clock.now.addingTimeInterval(-86_400 * 365)))
        }
        _ = try await wallet.apply(FinanceBatch(accounts: accounts))
        let fixture = DeliveryFixture(
            wallet: wallet, clock: clock,
            planner: DeliveryPlannerService(deliveries: wallet.backend.backgroundDelivery, clock: { clock.now }, logger: logger))
        _ = try await fixture.importTransactions(10_000)
        for index in 0..<clients {
            let client = ClientIdentifier(stringLiteral: "com.example.client\(index)")
            try await wallet.grant(accounts.map { AccountGrant(accountID: $0.id) }, to: client)
            _ = try await wallet.financeStore(for: client).enableBackgroundDelivery(
                for: [.accounts, .accountBalances, .transactions], frequency: .hourly,
                url: "http://127.0.0.1:\(receiverPort)/hook/\(index)")
        }
        // Enabling is not a change: the first pass decides nothing.
        try await fixture.planner.planOnce()
        return fixture
    }

    /// `count` new transactions, spread over every account, dated now.
    @discardableResult
    func importTransactions(_ count: Int) async throws -> FinanceImportSummary {
        let round = rounds.value
        rounds.increment()
        let now = clock.now
        let transactions = (0..<count).map { index in
            Transaction(
                id: Self.uuid(0x7A, round * 1_000_000 + index), accountID: Self.accountID(index % Self.accounts),
                transactionAmount: CurrencyAmount(amount: Decimal(index % 5_000 + 1) / 100, currencyCode: "EUR"),
                creditDebitIndicator: .debit, transactionDescription: "Coffee Bar \(index % 97)",
                originalTransactionDescription: "COFFEE BAR", merchantName: "Coffee Bar", transactionType: .pointOfSale,
                status: .booked, transactionDate: now.addingTimeInterval(-Double(index)))
        }
        return try await wallet.apply(FinanceBatch(transactions: transactions))
    }

    /// Marks every pending delivery delivered without sending (between measured rounds).
    func clearOutbox() async throws {
        let deliveries = wallet.backend.backgroundDelivery
        while true {
            let claimed = try await deliveries.claimDeliveries(
                dueAt: clock.now, leaseEnd: clock.now.addingTimeInterval(60), limit: 500)
            if claimed.isEmpty { return }
            for delivery in claimed { try await deliveries.recordDelivered(delivery.deliveryID, at: clock.now) }
        }
    }
}
