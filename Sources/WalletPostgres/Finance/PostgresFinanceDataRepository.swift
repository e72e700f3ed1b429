import FinanceData
import Foundation
import PostgresNIO
import WalletCore
import WalletPrimitives
import WalletStorage

/// ``FinanceData/FinanceDataRepository`` in PostgreSQL: FinanceData's dialect-neutral filters and
/// orderings (``FinanceData/QueryPlan``, ``FinanceData/GrantVisibility``) rendered in PostgreSQL's
/// SQL, with every NULL ordering written out.
final class PostgresFinanceDataRepository: FinanceDataRepository {
    private let executor: PostgresExecutor

    init(executor: PostgresExecutor) {
        self.executor = executor
    }

    // MARK: - Writing

    func apply(_ batch: FinanceBatch, at time: Date, compactingBefore cutoff: Date?) async throws -> FinanceImportSummary {
        let recordedAt = Microseconds.since1970(time)
        return try await write { connection, logger in
            var writer = PostgresBatchWriter(connection: connection, logger: logger, recordedAt: recordedAt)
            for account in batch.accounts { try await writer.upsert(account.stored) }
            for balance in batch.balances { try await writer.upsert(balance.stored) }
            for transaction in batch.transactions { try await writer.upsert(transaction.stored) }
            for id in batch.deletedTransactions { try await writer.deleteTransaction(id) }
            for id in batch.deletedBalances { try await writer.deleteBalance(id) }
            for id in batch.deletedAccounts { try await writer.deleteAccount(id) }
            if let cutoff { _ = try await Self.compact(before: cutoff, on: connection, logger: logger) }
            return writer.summary
        }
    }

    func compactHistory(before time: Date) async throws -> Int {
        try await write { connection, logger in try await Self.compact(before: time, on: connection, logger: logger) }
    }

    /// Deletes the records older than `time` and moves the horizon past them. The horizon's row
    /// is locked first, so two compactions run one after the other.
    private static func compact(before time: Date, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        try await connection.run("SELECT 1 FROM financeHistoryHorizon WHERE id = 1 FOR UPDATE", logger: logger)
        guard
            let through = try await connection.value(
                Int64.self, "SELECT max(sequence) FROM financeChanges WHERE recordedAt < $1",
                [.integer(Microseconds.since1970(time))], logger: logger)
        else { return 0 }
        let removed = try await connection.rows(
            "DELETE FROM financeChanges WHERE sequence <= $1 RETURNING 1", [.integer(through)], logger: logger
        ).count
        try await connection.run(
            "UPDATE financeHistoryHorizon SET compactedThrough = greatest(compactedThrough, $1) WHERE id = 1",
            [.integer(through)], logger: logger)
        return removed
    }

    // MARK: - Queries

    func accounts(_ query: AccountQuery, visibleTo access: ClientAccess) async throws -> [Account] {
        try await run(query.plan, query, "SELECT record FROM accounts", visibility: GrantVisibility.accounts(access)) { row in
            try FinanceRows.decode(Account.self, row.bytes(0))
        }
    }

    func accountBalances(_ query: AccountBalanceQuery, visibleTo access: ClientAccess) async throws -> [AccountBalance] {
        try await run(query.plan, query, "SELECT record FROM balances", visibility: GrantVisibility.balances(access)) { row in
            try FinanceRows.decode(AccountBalance.self, row.bytes(0))
        }
    }

    func transactions(_ query: TransactionQuery, visibleTo access: ClientAccess) async throws -> [Transaction] {
        try await run(
            query.plan, query, "SELECT \(FinanceRows.transactionColumns) FROM transactions",
            visibility: GrantVisibility.transactions(access)
        ) { row in try FinanceRows.transaction(row) }
    }

    func accountChoices() async throws -> [AccountChoice] {
        try await read { connection, logger in
            try await connection.rows("SELECT record FROM accounts ORDER BY displayNameKey, id", logger: logger).map { row in
                let account = try FinanceRows.decode(Account.self, row.bytes(0))
                return AccountChoice(id: account.id, displayName: account.displayName, institutionName: account.institutionName)
            }
        }
    }

    func accounts(ids: [UUID], visibleTo access: ClientAccess) async throws -> [Account] {
        try await fetch(ids: ids, "SELECT record FROM accounts", visibility: GrantVisibility.accounts(access)) { row in
            try FinanceRows.decode(Account.self, row.bytes(0))
        }
    }

    func accountBalances(ids: [UUID], visibleTo access: ClientAccess) async throws -> [AccountBalance] {
        try await fetch(ids: ids, "SELECT record FROM balances", visibility: GrantVisibility.balances(access, lookup: true)) {
            row in try FinanceRows.decode(AccountBalance.self, row.bytes(0))
        }
    }

    func transactions(ids: [UUID], visibleTo access: ClientAccess) async throws -> [Transaction] {
        try await fetch(
            ids: ids, "SELECT \(FinanceRows.transactionColumns) FROM transactions",
            visibility: GrantVisibility.transactions(access, lookup: true)
        ) { row in try FinanceRows.transaction(row) }
    }

    // MARK: - History

    func historyBounds() async throws -> (latest: Int64, compactedThrough: Int64) {
        let bounds = try await read { connection, logger in
            let row = try await connection.rows(
                """
                SELECT (SELECT max(sequence) FROM financeChanges),
                  (SELECT compactedThrough FROM financeHistoryHorizon WHERE id = 1)
                """, logger: logger
            ).first
            return (try row?.optionalInteger(0) ?? 0, try row?.optionalInteger(1) ?? 0)
        }
        return (max(bounds.0, bounds.1), bounds.1)
    }

    func changes(
        in stream: HistoryStream, for client: ClientIdentifier, after: Int64, through: Int64, limit: Int
    ) async throws -> [FinanceChange] {
        let arguments: [SQLValue] = [
            .text(stream.description), .integer(after), .integer(through),
            .text(StorableText.isExact(client.rawValue) ? client.rawValue : ""), .integer(Int64(max(0, limit))),
        ]
        return try await read { connection, logger in
            try await connection.rows(
                """
                SELECT sequence, entityID, kind FROM financeChanges
                WHERE stream = $1 AND sequence > $2 AND sequence <= $3 AND (client IS NULL OR client = $4)
                ORDER BY sequence LIMIT $5
                """, arguments, logger: logger
            ).map { row in
                let entity = try row.text(1)
                guard let id = UUID(uuidString: entity) else { throw FinanceRows.CorruptRow(column: 1, value: entity) }
                let kindText = try row.text(2)
                guard let kind = FinanceChange.Kind(rawValue: kindText) else {
                    throw FinanceRows.CorruptRow(column: 2, value: kindText)
                }
                return FinanceChange(sequence: try row.integer(0), entityID: id, kind: kind)
            }
        }
    }

    func snapshotAccounts(visibleTo access: ClientAccess, after: String, limit: Int) async throws -> [Account] {
        try await page("SELECT record FROM accounts", visibility: GrantVisibility.accounts(access), after: after, limit: limit) {
            row in try FinanceRows.decode(Account.self, row.bytes(0))
        }
    }

    func snapshotBalances(
        of account: UUID, visibleTo access: ClientAccess, after: String, limit: Int
    ) async throws -> [AccountBalance] {
        let visibility = StoredFilter.all([
            .compare(.column("accountID"), .equal, .text(account.uuidString)), GrantVisibility.balances(access, lookup: true),
        ])
        return try await page("SELECT record FROM balances", visibility: visibility, after: after, limit: limit) { row in
            try FinanceRows.decode(AccountBalance.self, row.bytes(0))
        }
    }

    func snapshotTransactions(
        of account: UUID, visibleTo access: ClientAccess, after: String, limit: Int
    ) async throws -> [Transaction] {
        let visibility = StoredFilter.all([
            .compare(.column("accountID"), .equal, .text(account.uuidString)), GrantVisibility.transactions(access, lookup: true),
        ])
        return try await page(
            "SELECT \(FinanceRows.transactionColumns) FROM transactions", visibility: visibility, after: after, limit: limit
        ) { row in try FinanceRows.transaction(row) }
    }

    private func page<Model: Sendable>(
        _ select: String, visibility: StoredFilter, after: String, limit: Int,
        decode: @escaping @Sendable (PostgresRandomAccessRow) throws -> Model
    ) async throws -> [Model] {
        var renderer = SQLRenderer.postgres
        let condition = renderer.condition(visibility)
        let sql =
            "\(select) WHERE (\(condition)) AND id > \(renderer.bind(.text(after))) ORDER BY id LIMIT \(renderer.bind(.integer(Int64(limit))))"
        let arguments = renderer.arguments
        return try await read { connection, logger in try await connection.rows(sql, arguments, logger: logger).map(decode) }
    }

    // MARK: - Reading

    /// A query: SQL selects (and, when the plan allows, orders and pages); memory does the rest,
    /// exactly as ``FinanceData/QueryPlan`` prescribes for every backend.
    private func run<Query: FinanceQuery>(
        _ plan: QueryPlan, _ query: Query, _ select: String, visibility: StoredFilter,
        decode: @escaping @Sendable (PostgresRandomAccessRow) throws -> Query.Model
    ) async throws -> [Query.Model] where Query.Model: Sendable {
        var renderer = SQLRenderer.postgres
        var sql = "\(select) WHERE (\(renderer.condition(visibility))) AND (\(renderer.condition(plan.filter)))"
        if !plan.needsMemory, let order = plan.order {
            sql += " ORDER BY \(renderer.ordering(order)) \(renderer.limit(query.limit, offset: query.offset))"
        }
        let statement = sql
        let arguments = renderer.arguments
        let rows = try await read { connection, logger in
            try await connection.rows(statement, arguments, logger: logger).map(decode)
        }
        return try query.finish(rows, plan: plan)
    }

    private func fetch<Model: Sendable>(
        ids: [UUID], _ select: String, visibility: StoredFilter,
        decode: @escaping @Sendable (PostgresRandomAccessRow) throws -> Model
    ) async throws -> [Model] {
        var models: [Model] = []
        for start in stride(from: 0, to: ids.count, by: 500) {
            var renderer = SQLRenderer.postgres
            let chunk = ids[start..<min(start + 500, ids.count)]
            let placeholders = chunk.map { renderer.bind(.text($0.uuidString)) }.joined(separator: ", ")
            let sql = "\(select) WHERE id IN (\(placeholders)) AND (\(renderer.condition(visibility))) ORDER BY id"
            let arguments = renderer.arguments
            models += try await read { connection, logger in try await connection.rows(sql, arguments, logger: logger).map(decode)
            }
        }
        return models
    }

    private func read<T: Sendable>(_ body: @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        do { return try await executor.read(body) } catch { throw Self.storageError(error) }
    }

    private func write<T: Sendable>(_ body: @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
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
