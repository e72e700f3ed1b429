import Foundation
import GRDB
import Synchronization
import WalletOrders

/// Stores seeded with synthetic financial data, built deterministically.
enum FinanceSeed {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wallet-orders-benchmarks")
    static let client: ClientIdentifier = "com.example.bench"
    static let start = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01T00:00:00Z
    static let span: Double = 1_050 * 86_400  // to late 2026
    static let descriptions = [
        "Corner Market", "Grand Hotel", "City Taxi", "Coffee Bar", "Fuel Station", "Bookshop", "Pharmacy", "Airline",
        "Hotel Lakeside", "Cinema", "Bakery", "Electronics", "Rent", "Salary", "Insurance", "Gym",
    ]
    static let merchantCategoryCodes: [Int16?] = [
        5411, 7011, 4121, 5814, 5541, 5942, 5912, 4511, 7011, 7832, 5462, 5732, nil, nil, 6300, 7997,
    ]

    static func accountID(_ index: Int) -> UUID { uuid(0xA0, index) }
    static func transactionID(_ index: Int) -> UUID { uuid(0x7A, index) }

    private static func uuid(_ prefix: UInt8, _ index: Int) -> UUID {
        let n = UInt64(index)
        return UUID(
            uuid: (
                prefix, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, UInt8(truncatingIfNeeded: n >> 40), UInt8(truncatingIfNeeded: n >> 32),
                UInt8(truncatingIfNeeded: n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8),
                UInt8(truncatingIfNeeded: n)
            ))
    }

    static func account(_ index: Int) -> Account {
        .asset(
            AssetAccount(
                id: accountID(index), displayName: "Account \(index)", institutionName: "Benchmark Bank", currencyCode: "EUR",
                openingDate: start))
    }

    /// Transaction `index` of `account`: pseudo-random but the same on every run.
    static func transaction(_ index: Int, account: Int, status: TransactionStatus? = nil) -> Transaction {
        var random = SplitMix64(seed: UInt64(index))
        let kind = Int(random.next() % 16)
        let statusRoll = random.next() % 100
        let date = start.addingTimeInterval(Double(random.next() % UInt64(span)))
        let cents = Int(random.next() % 50_000) + 1
        let types: [TransactionType] = [.pointOfSale, .pointOfSale, .pointOfSale, .directDebit, .transfer, .atm, .fee, .refund]
        return Transaction(
            id: transactionID(index), accountID: accountID(account),
            transactionAmount: CurrencyAmount(amount: Decimal(cents) / 100, currencyCode: "EUR"),
            creditDebitIndicator: kind == 13 ? .credit : .debit, transactionDescription: descriptions[kind],
            originalTransactionDescription: descriptions[kind].uppercased(),
            merchantCategoryCode: merchantCategoryCodes[kind].map(MerchantCategoryCode.init(rawValue:)),
            merchantName: descriptions[kind], transactionType: types[Int(random.next() % UInt64(types.count))],
            status: status
                ?? (statusRoll < 85 ? .booked : statusRoll < 95 ? .pending : statusRoll < 98 ? .authorized : .rejected),
            transactionDate: date, postedDate: date.addingTimeInterval(86_400))
    }

    private static func open(_ name: String) throws -> WalletStore {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try WalletStore(path: folder.appendingPathComponent(name).path)
    }

    /// Counted on a connection of the benchmark's own: the store's API has no row count.
    private static func transactionCount(_ wallet: WalletStore) throws -> Int {
        try DatabaseQueue(path: wallet.backend.location).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM transactions") ?? 0
        }
    }

    /// 1,000,000 transactions over 10 accounts, every account granted to ``client``.
    static func queryStore() async throws -> FinanceStore {
        let size = 1_000_000
        let accounts = 10
        var wallet = try open("finance-\(size).sqlite")
        if try transactionCount(wallet) != size {
            try FileManager.default.removeItem(at: folder.appendingPathComponent("finance-\(size).sqlite"))
            wallet = try open("finance-\(size).sqlite")
            _ = try await wallet.apply(FinanceBatch(accounts: (0..<accounts).map(account)))
            for first in stride(from: 0, to: size, by: 10_000) {
                let batch = (first..<min(first + 10_000, size)).map { transaction($0, account: $0 % accounts) }
                _ = try await wallet.apply(FinanceBatch(transactions: batch))
            }
            try await wallet.grant((0..<accounts).map { AccountGrant(accountID: accountID($0)) }, to: client)
        }
        return wallet.financeStore(for: client)
    }

    /// A copy of ``queryStore()``'s store, without finance.v3's index unless `withIndex`, taking
    /// batches of 10,000 transactions it has not seen.
    static func importState(withIndex: Bool) async throws -> ImportState {
        _ = try await queryStore()
        let copy = folder.appendingPathComponent("finance-import-\(withIndex ? "with" : "without")-index.sqlite")
        try? FileManager.default.removeItem(at: copy)
        try DatabaseQueue(path: folder.appendingPathComponent("finance-1000000.sqlite").path).backup(
            to: DatabaseQueue(path: copy.path))
        if !withIndex {
            let queue = try DatabaseQueue(path: copy.path)
            try queue.inDatabase { db in
                try db.execute(sql: "DROP INDEX transactions_on_merchantCategoryCode_transactionDate")
            }
        }
        return ImportState(wallet: try WalletStore(path: copy.path))
    }

    /// One account with 1,000 transactions, a token taken after them, then 100,000 changes:
    /// 80,000 insertions (15,000 of them pending), 15,000 of those booked, 4,900 deleted, a second
    /// token, and 100 more updates.
    static func historyStore() async throws -> HistoryState {
        let name = "finance-history-100000"
        let tokenFiles = [
            folder.appendingPathComponent("\(name).token"), folder.appendingPathComponent("\(name)-last-100.token"),
        ]
        var wallet = try open("\(name).sqlite")
        if try transactionCount(wallet) != 76_100 || !tokenFiles.allSatisfy({ FileManager.default.fileExists(atPath: $0.path) }) {
            try FileManager.default.removeItem(at: folder.appendingPathComponent("\(name).sqlite"))
            wallet = try open("\(name).sqlite")
            let finance = wallet.financeStore(for: client)
            _ = try await wallet.apply(FinanceBatch(accounts: [account(0)]))
            _ = try await wallet.apply(FinanceBatch(transactions: (0..<1_000).map { transaction($0, account: 0) }))
            try await wallet.grant([AccountGrant(accountID: accountID(0))], to: client)
            try JSONEncoder().encode(try await HistoryState.lastToken(finance, since: nil)).write(to: tokenFiles[0])
            for first in stride(from: 1_000, to: 81_000, by: 10_000) {
                let batch = (first..<first + 10_000).map { transaction($0, account: 0, status: $0 < 16_000 ? .pending : nil) }
                _ = try await wallet.apply(FinanceBatch(transactions: batch))
            }
            _ = try await wallet.apply(
                FinanceBatch(transactions: (1_000..<16_000).map { transaction($0, account: 0, status: .booked) }))
            _ = try await wallet.apply(FinanceBatch(deletedTransactions: (76_100..<81_000).map(transactionID)))
            let first = try JSONDecoder().decode(HistoryToken.self, from: Data(contentsOf: tokenFiles[0]))
            try JSONEncoder().encode(try await HistoryState.lastToken(finance, since: first)).write(to: tokenFiles[1])
            _ = try await wallet.apply(
                FinanceBatch(transactions: (20_000..<20_100).map { transaction($0, account: 0, status: .rejected) }))
        }
        let tokens = try tokenFiles.map { try JSONDecoder().decode(HistoryToken.self, from: Data(contentsOf: $0)) }
        return HistoryState(finance: wallet.financeStore(for: client), token: tokens[0], lastHundred: tokens[1])
    }
}

/// A store copy and an endless supply of new transactions, 10,000 at a time.
final class ImportState: Sendable {
    let wallet: WalletStore
    private let batches = Mutex(0)

    init(wallet: WalletStore) {
        self.wallet = wallet
    }

    func importNext() async throws -> FinanceImportSummary {
        let first =
            2_000_000
            + batches.withLock { batch in
                defer { batch += 1 }
                return batch * 10_000
            }
        return try await wallet.apply(
            FinanceBatch(transactions: (first..<first + 10_000).map { FinanceSeed.transaction($0, account: $0 % 10) }))
    }
}

/// The history store, the client's view of it, the token taken before the 100,000 changes and
/// the one taken before the last 100.
struct HistoryState: Sendable {
    let finance: FinanceStore
    let token: HistoryToken
    let lastHundred: HistoryToken

    /// Reads the stream to its end; the number of records delivered.
    func catchUp(since token: HistoryToken?) async throws -> Int {
        var delivered = 0
        for try await changes in finance.transactionHistory(
            forAccountID: FinanceSeed.accountID(0), since: token, isMonitoring: false)
        {
            delivered += changes.inserted.count + changes.updated.count + changes.deleted.count
        }
        return delivered
    }

    /// The token after reading the stream to its end.
    static func lastToken(_ finance: FinanceStore, since token: HistoryToken?) async throws -> HistoryToken? {
        var last = token
        for try await changes in finance.transactionHistory(
            forAccountID: FinanceSeed.accountID(0), since: token, isMonitoring: false)
        {
            last = changes.newToken
        }
        return last
    }
}

/// A small deterministic generator (SplitMix64), so seeded data is identical on every run.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
