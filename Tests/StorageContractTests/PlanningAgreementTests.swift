import FinanceData
import Foundation
import StorageContract
import TestArchiveTable
import Testing
import WalletCore
import WalletStorage

/// A planning pass decides from what the store logged and holds: change-log records written by
/// the import and access writers, the dates of the records still stored, every client's access —
/// all read back with SQL. ``FinanceData/DeliveryPlanner/changedTypes(in:among:visibleTo:dates:)``
/// states the rule over records. Random windows of inserts, updates, moves between accounts,
/// deletions, insert-then-delete, balances and access changes, for clients with random grants and
/// earliest dates on both sides of every record's date (or, every third round, none: the pass's
/// undated path): every endpoint's delivery names exactly
/// the types the rule names over the records the test expects the writers to log.
@Suite("Contract: planning passes agree with DeliveryPlanner's rule over a model of the change log")
struct PlanningAgreementTests {
    static let start = FinanceFixtures.base
    static let day: TimeInterval = 86_400

    /// The records this test wrote and the change-log records the store's writer makes of them.
    struct Model {
        var transactions: [UUID: Transaction] = [:]
        var balances: [UUID: AccountBalance] = [:]
        var log: [LoggedChange] = []

        mutating func append(
            _ stream: HistoryStream, _ id: UUID, _ kind: FinanceChange.Kind, client: ClientIdentifier? = nil,
            earliestDate: Date? = nil
        ) {
            log.append(
                LoggedChange(
                    sequence: Int64(log.count + 1), stream: stream, entityID: id, kind: kind, client: client,
                    earliestDate: earliestDate))
        }

        /// A record written to `to`: an insert, an update in place, or — moved from another
        /// account — a delete from that account's stream (with the earliest of its dates before
        /// the move) and an insert into `to`'s, as the writer logs it.
        mutating func appendWrite(
            _ stream: (UUID) -> HistoryStream, _ id: UUID, from: UUID?, to account: UUID, earliestDate: Date?
        ) {
            switch from {
            case nil: append(stream(account), id, .insert)
            case account: append(stream(account), id, .update)
            case let from?:
                append(stream(from), id, .delete, earliestDate: earliestDate)
                append(stream(account), id, .insert)
            }
        }

        /// The earliest of a balance's dates, as a deletion logs it.
        static func earliestDate(of balance: AccountBalance?) -> Date? {
            [balance?.available?.asOfDate, balance?.booked?.asOfDate].compactMap { $0 }.min()
        }

        /// One of the records, chosen by `random` (in identifier order, so a seed replays).
        static func pick<Record>(_ records: [UUID: Record], using random: inout SplitMix64) -> Record? {
            records.sorted { $0.key.uuidString < $1.key.uuidString }.randomElement(using: &random)?.value
        }

        /// The dates grants apply to, for every record still stored.
        var dates: [UUID: [Date]] {
            var dates = transactions.mapValues { [$0.transactionDate] }
            for (id, balance) in balances {
                dates[id] = [balance.available?.asOfDate, balance.booked?.asOfDate].compactMap { $0 }
            }
            return dates
        }
    }

    @Test("random windows: each delivery names exactly the types the rule over the records names", arguments: BackendFactory.all)
    func agreement(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let accounts = (0..<3).map { _ in UUID() }
        _ = try await backend.finance.apply(
            FinanceBatch(accounts: accounts.enumerated().map { FinanceFixtures.asset($1, name: "Account \($0)") }), at: Self.start
        )
        var random = SplitMix64(state: 0x0026_5EED)
        var model = Model()
        var clock: TimeInterval = 0
        func tick() -> Date {
            clock += 1
            return Self.start.addingTimeInterval(clock)
        }
        var checked = 0

        // Fewer through a pooler: the rule is the subject, not the way to the server.
        let rounds = factory.isThroughPooler ? 12 : 40
        for round in 0..<rounds {
            var accesses: [ClientAccess] = []
            // Every third round no grant has an earliest date: the pass then reads no dates.
            let dated = round % 3 != 0
            for index in 0..<5 {
                let client = ClientIdentifier(rawValue: "com.example.round\(round).client\(index)")!
                let grants = accounts.filter { _ in Int.random(in: 0..<3, using: &random) > 0 }.map {
                    AccountGrant(
                        accountID: $0, earliestDate: dated && Bool.random(using: &random) ? Self.date(using: &random) : nil)
                }
                _ = try await backend.access.recordDecision(.authorized(grants), for: client, at: tick())
                _ = try await backend.backgroundDelivery.enable(
                    Set(BackgroundDataType.allCases), frequency: .hourly, url: try WebhookURL("https://\(index).example/hook"),
                    for: client, secret: "wds_\(round)_\(index)", maximumEndpoints: 2, at: tick())
                accesses.append(ClientAccess(client: client, status: .authorized, accounts: grants))
            }
            model.log = []
            for _ in 0..<Int.random(in: 2...8, using: &random) {
                try await Self.randomChange(
                    to: backend, model: &model, accesses: &accesses, accounts: accounts, at: tick(), using: &random)
            }

            let time = tick()
            _ = try await backend.backgroundDelivery.planDeliveries(at: time, scanLimit: 1_000)
            let claimed = try await backend.backgroundDelivery.claimDeliveries(
                dueAt: time, leaseEnd: time.addingTimeInterval(60), limit: 100)
            let dates = model.dates
            for access in accesses {
                let expected = DeliveryPlanner.changedTypes(
                    in: model.log, among: Set(BackgroundDataType.allCases), visibleTo: access, dates: dates)
                let delivered = Set(claimed.filter { $0.client == access.client }.flatMap(\.types))
                #expect(delivered == expected, "round \(round), \(access.client.rawValue), window \(model.log)")
                checked += expected.isEmpty ? 0 : 1
            }
            #expect(claimed.allSatisfy { claimed in accesses.contains { $0.client == claimed.client } })
            // The round's clients go: their endpoints with them (revoking records no change).
            for access in accesses { try await backend.access.revoke(access.client, accounts: [], at: tick()) }
        }
        // The windows were not all empty or all invisible.
        #expect(checked >= rounds)
    }

    /// A date within three days of the grants' earliest dates (which are such dates too), or
    /// on one.
    static func date(using random: inout SplitMix64) -> Date {
        start.addingTimeInterval(Double(10 + Int.random(in: -3...3, using: &random)) * day)
    }

    /// One import or access change, applied to the store and to the model alike.
    static func randomChange(
        to backend: any StorageBackend, model: inout Model, accesses: inout [ClientAccess], accounts: [UUID],
        at time: Date, using random: inout SplitMix64
    ) async throws {
        func date() -> Date { Self.date(using: &random) }
        func apply(_ batch: FinanceBatch) async throws {
            _ = try await backend.finance.apply(batch, at: time, compactingBefore: nil)
        }
        let account = accounts[Int.random(in: 0..<accounts.count, using: &random)]
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1:  // a new transaction
            var transaction = FinanceFixtures.transactions(count: 1, accounts: [account], seed: random.next())[0]
            transaction.transactionDate = date()
            transaction.postedDate = nil
            try await apply(FinanceBatch(transactions: [transaction]))
            model.transactions[transaction.id] = transaction
            model.append(.transactions(accountID: account), transaction.id, .insert)
        case 2:  // a transaction changed, perhaps moved to another account
            guard
                var transaction = Model.pick(model.transactions, using: &random)
            else { return }
            let from = transaction.accountID
            let previousDate = transaction.transactionDate
            transaction.transactionDate = date()
            transaction.transactionDescription += "'"
            transaction.accountID = account
            try await apply(FinanceBatch(transactions: [transaction]))
            model.transactions[transaction.id] = transaction
            model.appendWrite(
                HistoryStream.transactions(accountID:), transaction.id, from: from, to: account, earliestDate: previousDate)
        case 3:  // a transaction deleted
            guard
                let transaction = Model.pick(model.transactions, using: &random)
            else { return }
            try await apply(FinanceBatch(deletedTransactions: [transaction.id]))
            model.transactions[transaction.id] = nil
            model.append(
                .transactions(accountID: transaction.accountID), transaction.id, .delete,
                earliestDate: transaction.transactionDate)
        case 4:  // inserted and deleted again within the window
            var transaction = FinanceFixtures.transactions(count: 1, accounts: [account], seed: random.next())[0]
            transaction.transactionDate = date()
            try await apply(FinanceBatch(transactions: [transaction]))
            try await apply(FinanceBatch(deletedTransactions: [transaction.id]))
            model.append(.transactions(accountID: account), transaction.id, .insert)
            model.append(.transactions(accountID: account), transaction.id, .delete, earliestDate: transaction.transactionDate)
        case 5:  // a balance inserted or changed: available, booked or both, on either side of the grants
            let existing = Model.pick(model.balances, using: &random)
            let id = Bool.random(using: &random) ? existing?.id ?? UUID() : UUID()
            func balance() -> Balance {
                Balance(
                    amount: CurrencyAmount(amount: Decimal(Int.random(in: 1...999, using: &random)), currencyCode: "EUR"),
                    asOfDate: date(), creditDebitIndicator: .credit)
            }
            let current: CurrentBalance =
                switch Int.random(in: 0..<3, using: &random) {
                case 0: .available(balance())
                case 1: .booked(balance())
                default: .availableAndBooked(available: balance(), booked: balance())
                }
            let new = AccountBalance(id: id, accountID: account, currentBalance: current)
            guard new != model.balances[id] else { return }
            try await apply(FinanceBatch(balances: [new]))
            model.appendWrite(
                HistoryStream.balances(accountID:), id, from: model.balances[id]?.accountID, to: account,
                earliestDate: Model.earliestDate(of: model.balances[id]))
            model.balances[id] = new
        case 6:  // a balance deleted
            guard
                let balance = Model.pick(model.balances, using: &random)
            else { return }
            try await apply(FinanceBatch(deletedBalances: [balance.id]))
            model.balances[balance.id] = nil
            model.append(
                .balances(accountID: balance.accountID), balance.id, .delete, earliestDate: Model.earliestDate(of: balance))
        case 7:  // an account renamed
            try await apply(
                FinanceBatch(accounts: [FinanceFixtures.asset(account, name: "Renamed \(time.timeIntervalSince1970)")]))
            model.append(.accounts, account, .update)
        case 8:  // an account shared with one of the round's clients
            let index = Int.random(in: 0..<accesses.count, using: &random)
            let grant = AccountGrant(accountID: account, earliestDate: Bool.random(using: &random) ? date() : nil)
            try await backend.access.grant([grant], to: accesses[index].client, at: time)
            if !accesses[index].shares(account) { model.append(.accounts, account, .insert, client: accesses[index].client) }
            accesses[index].accounts[account] = grant
        default:  // an account withdrawn from one
            let index = Int.random(in: 0..<accesses.count, using: &random)
            try await backend.access.revoke(accesses[index].client, accounts: [account], at: time)
            if accesses[index].shares(account) { model.append(.accounts, account, .delete, client: accesses[index].client) }
            accesses[index].accounts[account] = nil
        }
    }
}
