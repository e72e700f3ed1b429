import Foundation
import GRDB
import WalletCore
import WalletPrimitives

/// ``FinanceDataRepository`` in the shared SQLite file.
public final class SQLiteFinanceDataRepository: FinanceDataRepository {
    public let database: DatabasePool
    /// Tests compare the SQL path with this one: every query evaluated in memory.
    let evaluatesInMemory: Bool

    /// Uses a pool whose migrator registered ``FinanceDataSchema``.
    public convenience init(database: DatabasePool) {
        self.init(database: database, evaluatesInMemory: false)
    }

    init(database: DatabasePool, evaluatesInMemory: Bool) {
        self.database = database
        self.evaluatesInMemory = evaluatesInMemory
    }

    // MARK: - Writing

    public func apply(_ batch: FinanceBatch, at time: Date, compactingBefore cutoff: Date?) async throws -> FinanceImportSummary {
        let recordedAt = Microseconds.since1970(time)
        return try await write { db in
            var writer = BatchWriter(db: db, recordedAt: recordedAt)
            for account in batch.accounts { try writer.upsert(account.stored) }
            for balance in batch.balances { try writer.upsert(balance.stored) }
            for transaction in batch.transactions { try writer.upsert(transaction.stored) }
            for id in batch.deletedTransactions { try writer.deleteTransaction(id) }
            for id in batch.deletedBalances { try writer.deleteBalance(id) }
            for id in batch.deletedAccounts { try writer.deleteAccount(id) }
            let counts = writer.summary.transactions
            try PlannerStatistics.record(changes: counts.inserted + counts.updated + counts.deleted, in: db)
            if let cutoff { _ = try Self.compact(before: cutoff, in: db) }
            return writer.summary
        }
    }

    /// Records, for the client alone, accounts shared (`insert`) and withdrawn (`delete`) in its
    /// account history. ``WalletStore`` hands this to its access repository, which calls it inside
    /// the transaction that changes the access.
    public static func recordAccessChange(_ change: AccountAccessChange, in db: Database) throws {
        let recordedAt = Microseconds.since1970(change.time)
        let records = change.shared.map { ($0, FinanceChange.Kind.insert) } + change.withdrawn.map { ($0, .delete) }
        for (account, kind) in records {
            try db.cachedStatement(
                sql: "INSERT INTO financeChanges (stream, entityID, kind, client, recordedAt) VALUES (?, ?, ?, ?, ?)"
            ).execute(
                arguments: [
                    HistoryStream.accounts.description, account.uuidString, kind.rawValue, change.client.rawValue, recordedAt,
                ])
        }
    }

    public func compactHistory(before time: Date) async throws -> Int {
        try await write { db in try Self.compact(before: time, in: db) }
    }

    private static func compact(before time: Date, in db: Database) throws -> Int {
        guard
            let through = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT max(sequence) FROM financeChanges WHERE recordedAt < ?"),
                arguments: [Microseconds.since1970(time)])
        else { return 0 }
        try db.execute(sql: "DELETE FROM financeChanges WHERE sequence <= ?", arguments: [through])
        let removed = db.changesCount
        try db.execute(
            sql: "UPDATE financeHistoryHorizon SET compactedThrough = max(compactedThrough, ?) WHERE id = 1",
            arguments: [through])
        return removed
    }

    // MARK: - Queries

    public func accounts(_ query: AccountQuery, visibleTo access: ClientAccess) async throws -> [Account] {
        try run(
            query, "SELECT record FROM accounts", visibility: Self.accountVisibility(access), map: .accounts,
            defaultOrder: (sql: ["id ASC"], memory: { _, _ in .orderedSame })
        ) { row in try FinanceRows.decode(Account.self, row[0]) }
    }

    public func accountBalances(_ query: AccountBalanceQuery, visibleTo access: ClientAccess) async throws -> [AccountBalance] {
        try run(
            query, "SELECT record FROM balances", visibility: Self.balanceVisibility(access), map: .balances,
            defaultOrder: (sql: ["id ASC"], memory: { _, _ in .orderedSame })
        ) { row in try FinanceRows.decode(AccountBalance.self, row[0]) }
    }

    public func transactions(_ query: TransactionQuery, visibleTo access: ClientAccess) async throws -> [Transaction] {
        try run(
            query, "SELECT \(FinanceRows.transactionColumns) FROM transactions", visibility: Self.transactionVisibility(access),
            map: .transactions,
            defaultOrder: (
                sql: ["effectiveDate ASC", "id ASC"],
                memory: { a, b in
                    a.effectiveDate < b.effectiveDate
                        ? .orderedAscending : a.effectiveDate > b.effectiveDate ? .orderedDescending : .orderedSame
                }
            ),
            decode: FinanceRows.transaction)
    }

    public func accountChoices() async throws -> [AccountChoice] {
        try read { db in
            try Data.fetchAll(db, sql: "SELECT record FROM accounts ORDER BY displayNameKey, id").map { data in
                let account = try FinanceRows.decode(Account.self, data)
                return AccountChoice(id: account.id, displayName: account.displayName, institutionName: account.institutionName)
            }
        }
    }

    public func accounts(ids: [UUID], visibleTo access: ClientAccess) async throws -> [Account] {
        try fetch(ids: ids, "SELECT record FROM accounts", visibility: Self.accountVisibility(access)) { row in
            try FinanceRows.decode(Account.self, row[0])
        }
    }

    public func accountBalances(ids: [UUID], visibleTo access: ClientAccess) async throws -> [AccountBalance] {
        try fetch(ids: ids, "SELECT record FROM balances", visibility: Self.balanceVisibility(access, lookup: true)) { row in
            try FinanceRows.decode(AccountBalance.self, row[0])
        }
    }

    public func transactions(ids: [UUID], visibleTo access: ClientAccess) async throws -> [Transaction] {
        try fetch(
            ids: ids, "SELECT \(FinanceRows.transactionColumns) FROM transactions",
            visibility: Self.transactionVisibility(access, lookup: true),
            decode: FinanceRows.transaction)
    }

    // MARK: - History

    public func historyBounds() async throws -> (latest: Int64, compactedThrough: Int64) {
        try read { db in
            let latest = try Int64.fetchOne(db, sql: "SELECT max(sequence) FROM financeChanges") ?? 0
            let compacted = try Int64.fetchOne(db, sql: "SELECT compactedThrough FROM financeHistoryHorizon WHERE id = 1") ?? 0
            return (max(latest, compacted), compacted)
        }
    }

    public func changes(
        in stream: HistoryStream, for client: ClientIdentifier, after: Int64, through: Int64, limit: Int
    ) async throws -> [FinanceChange] {
        try read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT sequence, entityID, kind FROM financeChanges
                        WHERE stream = ? AND sequence > ? AND sequence <= ? AND (client IS NULL OR client = ?)
                        ORDER BY sequence LIMIT ?
                        """),
                arguments: [stream.description, after, through, client.rawValue, limit]
            ).map { row in
                guard let id = UUID(uuidString: row[1]) else { throw FinanceRows.CorruptRow(column: 1, value: row[1]) }
                guard let kind = FinanceChange.Kind(rawValue: row[2]) else {
                    throw FinanceRows.CorruptRow(column: 2, value: row[2])
                }
                return FinanceChange(sequence: row[0], entityID: id, kind: kind)
            }
        }
    }

    public func snapshotAccounts(visibleTo access: ClientAccess, after: String, limit: Int) async throws -> [Account] {
        try page("SELECT record FROM accounts", visibility: Self.accountVisibility(access), after: after, limit: limit) { row in
            try FinanceRows.decode(Account.self, row[0])
        }
    }

    public func snapshotBalances(
        of account: UUID, visibleTo access: ClientAccess, after: String, limit: Int
    ) async throws -> [AccountBalance] {
        let visibility = SQLFragment.and([
            SQLFragment("accountID = ?", [account.uuidString]), Self.balanceVisibility(access, lookup: true),
        ])
        return try page("SELECT record FROM balances", visibility: visibility, after: after, limit: limit) { row in
            try FinanceRows.decode(AccountBalance.self, row[0])
        }
    }

    public func snapshotTransactions(
        of account: UUID, visibleTo access: ClientAccess, after: String, limit: Int
    ) async throws -> [Transaction] {
        let visibility = SQLFragment.and([
            SQLFragment("accountID = ?", [account.uuidString]), Self.transactionVisibility(access, lookup: true),
        ])
        return try page(
            "SELECT \(FinanceRows.transactionColumns) FROM transactions", visibility: visibility, after: after, limit: limit,
            decode: FinanceRows.transaction)
    }

    private func page<Model>(
        _ select: String, visibility: SQLFragment, after: String, limit: Int, decode: @escaping (Row) throws -> Model
    ) throws -> [Model] {
        var arguments = visibility.arguments
        arguments += [after, limit]
        return try read { db in
            try Array(
                Row.fetchCursor(
                    db, sql: "\(select) WHERE (\(visibility.sql)) AND id > ? ORDER BY id LIMIT ?", arguments: arguments
                )
                .map(decode))
        }
    }

    // MARK: - Visibility

    static func accountVisibility(_ access: ClientAccess) -> SQLFragment {
        let ids = visibleAccounts(access)
        guard !ids.isEmpty else { return .false }
        return SQLFragment(
            "id IN (\(ids.map { _ in "?" }.joined(separator: ", ")))", StatementArguments(ids.map(\.accountID.uuidString)))
    }

    /// Transactions of shared accounts, not dated before the account's earliest date.
    ///
    /// `lookup` writes the columns as `+column`, which SQLite will not use an index for: when the
    /// caller's own condition selects the rows (ids, or one account's id range in a catch-up), that
    /// condition must drive the search, not a scan of a whole account by date.
    static func transactionVisibility(_ access: ClientAccess, lookup: Bool = false) -> SQLFragment {
        let (account, date) = lookup ? ("+accountID", "+transactionDate") : ("accountID", "transactionDate")
        return .or(
            visibleAccounts(access).map { grant in
                guard let earliest = grant.earliestDate else {
                    return SQLFragment("\(account) = ?", [grant.accountID.uuidString])
                }
                return SQLFragment(
                    "\(account) = ? AND \(date) >= ?", [grant.accountID.uuidString, Microseconds.since1970(earliest)])
            })
    }

    /// Balances of shared accounts, no part of which is as of before the earliest date.
    /// `lookup` as for ``transactionVisibility(_:lookup:)``.
    static func balanceVisibility(_ access: ClientAccess, lookup: Bool = false) -> SQLFragment {
        let account = lookup ? "+accountID" : "accountID"
        return .or(
            visibleAccounts(access).map { grant in
                guard let earliest = grant.earliestDate else {
                    return SQLFragment("\(account) = ?", [grant.accountID.uuidString])
                }
                let micros = Microseconds.since1970(earliest)
                return SQLFragment(
                    "\(account) = ? AND (availableAsOf IS NULL OR availableAsOf >= ?) AND (bookedAsOf IS NULL OR bookedAsOf >= ?)",
                    [grant.accountID.uuidString, micros, micros])
            })
    }

    private static func visibleAccounts(_ access: ClientAccess) -> [AccountGrant] {
        guard access.status == .authorized else { return [] }
        return access.accounts.values.sorted { $0.accountID.uuidString < $1.accountID.uuidString }
    }

    // MARK: - Reading

    /// A query: SQL selects (and, when the plan allows, orders and pages); memory does the rest.
    /// `defaultOrder` is the order without sort descriptors, in SQL and in Swift; ties go by id.
    private func run<Query: FinanceQuery>(
        _ query: Query, _ select: String, visibility: SQLFragment, map: ColumnMap,
        defaultOrder: (sql: [String], memory: (Query.Model, Query.Model) -> ComparisonResult),
        decode: @escaping (Row) throws -> Query.Model
    ) throws -> [Query.Model] {
        let plan =
            evaluatesInMemory
            ? QueryPlan(filter: .true, exact: false, order: nil)
            : QueryPlan.make(predicate: query.predicate, sort: query.sortDescriptors, defaultOrder: defaultOrder.sql, map: map)
        var sql = "\(select) WHERE (\(visibility.sql)) AND (\(plan.filter.sql))"
        var arguments = visibility.arguments
        arguments += plan.filter.arguments
        if !plan.needsMemory, let order = plan.order {
            sql += " ORDER BY " + order.joined(separator: ", ") + " LIMIT ? OFFSET ?"
            arguments += [query.limit.map { max(0, $0) } ?? -1, max(0, query.offset ?? 0)]
        }
        // A cursor decodes each row in place; fetchAll would copy every row first.
        let rows = try read { db in try Array(Row.fetchCursor(db, sql: sql, arguments: arguments).map(decode)) }
        guard plan.needsMemory else { return rows }
        var matching = rows
        if !plan.exact, let predicate = query.predicate { matching = try rows.filter { try predicate.evaluate($0) } }
        return MemorySort.page(
            MemorySort.sorted(matching, by: query.sortDescriptors, default: defaultOrder.memory), offset: query.offset,
            limit: query.limit)
    }

    private func fetch<Model>(
        ids: [UUID], _ select: String, visibility: SQLFragment, decode: @escaping (Row) throws -> Model
    ) throws -> [Model] {
        var models: [Model] = []
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            var arguments = StatementArguments(chunk.map(\.uuidString))
            arguments += visibility.arguments
            let sql =
                "\(select) WHERE id IN (\(chunk.map { _ in "?" }.joined(separator: ", "))) AND (\(visibility.sql)) ORDER BY id"
            models += try read { db in try Array(Row.fetchCursor(db, sql: sql, arguments: arguments).map(decode)) }
        }
        return models
    }

    /// Reads on the calling thread (see SQLiteOrderRepository for why).
    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch {
            throw self.storageError(error)
        }
    }

    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await database.write(body)
        } catch {
            throw self.storageError(error)
        }
    }

    /// The library's own errors as they are; anything else (SQLite failures, a row that does not
    /// decode) means the store cannot be used: ``StorageError``, as for orders and access.
    private func storageError(_ error: any Error) -> any Error {
        switch error {
        case is FinanceDataError, is FinanceError, is FinanceAccessError, is StorageError, is CancellationError: error
        case let error as FinanceRows.CorruptRow: StorageError(reason: error.description)
        default: StorageError(error, path: database.path)
        }
    }
}
