import FinanceData
import Foundation
import GRDB
import WalletCore
import WalletPrimitives
import WalletStorage

/// ``FinanceData/FinanceDataRepository`` in the store file. Query filters and orderings come from
/// FinanceData in no dialect (``FinanceData/QueryPlan``, ``FinanceData/GrantVisibility``) and are
/// rendered here in SQLite's.
final class SQLiteFinanceDataRepository: FinanceDataRepository {
    private let executor: SQLiteExecutor

    init(executor: SQLiteExecutor) {
        self.executor = executor
    }

    // MARK: - Writing

    func apply(_ batch: FinanceBatch, at time: Date, compactingBefore cutoff: Date?) async throws -> FinanceImportSummary {
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
    /// account history. The access repository calls it inside the transaction that changes the
    /// access.
    @Sendable static func recordAccessChange(_ change: AccountAccessChange, in db: Database) throws {
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

    func compactHistory(before time: Date) async throws -> Int {
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

    func accounts(_ query: AccountQuery, visibleTo access: ClientAccess) async throws -> [Account] {
        try run(query.plan, query, "SELECT record FROM accounts", visibility: GrantVisibility.accounts(access)) { row in
            try FinanceRows.decode(Account.self, row[0])
        }
    }

    func accountBalances(_ query: AccountBalanceQuery, visibleTo access: ClientAccess) async throws -> [AccountBalance] {
        try run(query.plan, query, "SELECT record FROM balances", visibility: GrantVisibility.balances(access)) { row in
            try FinanceRows.decode(AccountBalance.self, row[0])
        }
    }

    func transactions(_ query: TransactionQuery, visibleTo access: ClientAccess) async throws -> [Transaction] {
        try run(
            query.plan, query, "SELECT \(FinanceRows.transactionColumns) FROM transactions",
            visibility: GrantVisibility.transactions(access), decode: FinanceRows.transaction)
    }

    func accountChoices() async throws -> [AccountChoice] {
        try read { db in
            try Data.fetchAll(db, sql: "SELECT record FROM accounts ORDER BY displayNameKey, id").map { data in
                let account = try FinanceRows.decode(Account.self, data)
                return AccountChoice(id: account.id, displayName: account.displayName, institutionName: account.institutionName)
            }
        }
    }

    func accounts(ids: [UUID], visibleTo access: ClientAccess) async throws -> [Account] {
        try fetch(ids: ids, "SELECT record FROM accounts", visibility: GrantVisibility.accounts(access)) { row in
            try FinanceRows.decode(Account.self, row[0])
        }
    }

    func accountBalances(ids: [UUID], visibleTo access: ClientAccess) async throws -> [AccountBalance] {
        try fetch(ids: ids, "SELECT record FROM balances", visibility: GrantVisibility.balances(access, lookup: true)) { row in
            try FinanceRows.decode(AccountBalance.self, row[0])
        }
    }

    func transactions(ids: [UUID], visibleTo access: ClientAccess) async throws -> [Transaction] {
        try fetch(
            ids: ids, "SELECT \(FinanceRows.transactionColumns) FROM transactions",
            visibility: GrantVisibility.transactions(access, lookup: true), decode: FinanceRows.transaction)
    }

    // MARK: - History

    func historyBounds() async throws -> (latest: Int64, compactedThrough: Int64) {
        try read { db in
            let latest = try Int64.fetchOne(db, sql: "SELECT max(sequence) FROM financeChanges") ?? 0
            let compacted = try Int64.fetchOne(db, sql: "SELECT compactedThrough FROM financeHistoryHorizon WHERE id = 1") ?? 0
            return (max(latest, compacted), compacted)
        }
    }

    func changes(
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

    func snapshotAccounts(visibleTo access: ClientAccess, after: String, limit: Int) async throws -> [Account] {
        try page("SELECT record FROM accounts", visibility: GrantVisibility.accounts(access), after: after, limit: limit) { row in
            try FinanceRows.decode(Account.self, row[0])
        }
    }

    func snapshotBalances(
        of account: UUID, visibleTo access: ClientAccess, after: String, limit: Int
    ) async throws -> [AccountBalance] {
        let visibility = StoredFilter.all([
            .compare(.column("accountID"), .equal, .text(account.uuidString)), GrantVisibility.balances(access, lookup: true),
        ])
        return try page("SELECT record FROM balances", visibility: visibility, after: after, limit: limit) { row in
            try FinanceRows.decode(AccountBalance.self, row[0])
        }
    }

    func snapshotTransactions(
        of account: UUID, visibleTo access: ClientAccess, after: String, limit: Int
    ) async throws -> [Transaction] {
        let visibility = StoredFilter.all([
            .compare(.column("accountID"), .equal, .text(account.uuidString)), GrantVisibility.transactions(access, lookup: true),
        ])
        return try page(
            "SELECT \(FinanceRows.transactionColumns) FROM transactions", visibility: visibility, after: after, limit: limit,
            decode: FinanceRows.transaction)
    }

    private func page<Model>(
        _ select: String, visibility: StoredFilter, after: String, limit: Int, decode: @escaping (Row) throws -> Model
    ) throws -> [Model] {
        var renderer = SQLRenderer.sqlite
        let condition = renderer.condition(visibility)
        let sql =
            "\(select) WHERE (\(condition)) AND id > \(renderer.bind(.text(after))) ORDER BY id LIMIT \(renderer.bind(.integer(Int64(limit))))"
        let arguments = StatementArguments(renderer.arguments)
        return try read { db in try Array(Row.fetchCursor(db, sql: sql, arguments: arguments).map(decode)) }
    }

    // MARK: - Reading

    /// A query: SQL selects (and, when the plan allows, orders and pages); memory does the rest,
    /// exactly as ``FinanceData/QueryPlan`` prescribes for every backend.
    private func run<Query: FinanceQuery>(
        _ plan: QueryPlan, _ query: Query, _ select: String, visibility: StoredFilter,
        decode: @escaping (Row) throws -> Query.Model
    ) throws -> [Query.Model] {
        var renderer = SQLRenderer.sqlite
        var sql = "\(select) WHERE (\(renderer.condition(visibility))) AND (\(renderer.condition(plan.filter)))"
        if !plan.needsMemory, let order = plan.order {
            sql += " ORDER BY \(renderer.ordering(order)) \(renderer.limit(query.limit, offset: query.offset))"
        }
        let arguments = StatementArguments(renderer.arguments)
        // A cursor decodes each row in place; fetchAll would copy every row first.
        let rows = try read { db in try Array(Row.fetchCursor(db, sql: sql, arguments: arguments).map(decode)) }
        return try query.finish(rows, plan: plan)
    }

    private func fetch<Model>(
        ids: [UUID], _ select: String, visibility: StoredFilter, decode: @escaping (Row) throws -> Model
    ) throws -> [Model] {
        var models: [Model] = []
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            var renderer = SQLRenderer.sqlite
            let placeholders = chunk.map { renderer.bind(.text($0.uuidString)) }.joined(separator: ", ")
            let sql = "\(select) WHERE id IN (\(placeholders)) AND (\(renderer.condition(visibility))) ORDER BY id"
            let arguments = StatementArguments(renderer.arguments)
            models += try read { db in try Array(Row.fetchCursor(db, sql: sql, arguments: arguments).map(decode)) }
        }
        return models
    }

    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try executor.read(body) } catch { throw Self.storageError(error) }
    }

    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await executor.write(body) } catch { throw Self.storageError(error) }
    }

    /// A row that does not decode means the store cannot be used: ``WalletCore/StorageError``,
    /// as for orders and access. The library's own errors pass as they are.
    private static func storageError(_ error: any Error) -> any Error {
        switch error {
        case let error as FinanceRows.CorruptRow: StorageError(reason: error.description)
        default: error
        }
    }
}
