import FinanceData
import Foundation
import WalletCore
import WalletPrimitives

/// ``FinanceData/FinanceDataRepository`` for every SQL backend: FinanceData's dialect-neutral
/// filters and orderings (``FinanceData/QueryPlan``, ``FinanceData/GrantVisibility``) rendered in
/// the backend's dialect by ``SQLRenderer``.
package final class SQLFinanceDataRepository: FinanceDataRepository {
    private let executor: any SQLExecutor

    package init(executor: any SQLExecutor) {
        self.executor = executor
    }

    // MARK: - Writing

    package func apply(_ batch: FinanceBatch, at time: Date, compactingBefore cutoff: Date?) async throws -> FinanceImportSummary
    {
        let recordedAt = Microseconds.since1970(time)
        let dialect = executor.dialect
        return try await reportingCorruptRows {
            try await executor.write { connection in
                var writer = FinanceBatchWriter(connection: connection, dialect: dialect, recordedAt: recordedAt)
                for account in batch.accounts { try await writer.upsert(account.stored) }
                for balance in batch.balances { try await writer.upsert(balance.stored) }
                for transaction in batch.transactions { try await writer.upsert(transaction.stored) }
                for id in batch.deletedTransactions { try await writer.deleteTransaction(id) }
                for id in batch.deletedBalances { try await writer.deleteBalance(id) }
                for id in batch.deletedAccounts { try await writer.deleteAccount(id) }
                let counts = writer.summary.transactions
                try await dialect.didApplyFinanceChanges(
                    rows: counts.inserted + counts.updated + counts.deleted, on: connection)
                if let cutoff { _ = try await Self.compact(before: cutoff, dialect: dialect, on: connection) }
                return writer.summary
            }
        }
    }

    package func compactHistory(before time: Date) async throws -> Int {
        let dialect = executor.dialect
        return try await reportingCorruptRows {
            try await executor.write { connection in try await Self.compact(before: time, dialect: dialect, on: connection) }
        }
    }

    /// Deletes the records older than `time` and moves the horizon past them. The horizon's row
    /// is locked first, so two compactions run one after the other.
    private static func compact(before time: Date, dialect: any SQLDialect, on connection: any SQLConnection) async throws -> Int
    {
        if dialect.locksRows {
            try await connection.execute("SELECT 1 FROM financeHistoryHorizon WHERE id = 1 \(dialect.lockingRead)")
        }
        guard
            let through = try await connection.integer(
                "SELECT max(sequence) FROM financeChanges WHERE recordedAt < $1", [.instant(time)])
        else { return 0 }
        let removed = try await connection.count(
            "DELETE FROM financeChanges WHERE sequence <= $1 RETURNING 1", [.integer(through)])
        try await connection.execute(
            """
            UPDATE financeHistoryHorizon
            SET compactedThrough = CASE WHEN compactedThrough > $1 THEN compactedThrough ELSE $1 END WHERE id = 1
            """, [.integer(through)])
        return removed
    }

    // MARK: - Queries

    package func accounts(_ query: AccountQuery, visibleTo access: ClientAccess) async throws -> [Account] {
        try await run(query.plan, query, "SELECT record FROM accounts", visibility: GrantVisibility.accounts(access)) { row in
            try FinanceRows.decode(Account.self, row.bytes(0))
        }
    }

    package func accountBalances(_ query: AccountBalanceQuery, visibleTo access: ClientAccess) async throws -> [AccountBalance] {
        try await run(query.plan, query, "SELECT record FROM balances", visibility: GrantVisibility.balances(access)) { row in
            try FinanceRows.decode(AccountBalance.self, row.bytes(0))
        }
    }

    package func transactions(_ query: TransactionQuery, visibleTo access: ClientAccess) async throws -> [Transaction] {
        try await run(
            query.plan, query, "SELECT \(FinanceRows.transactionColumns) FROM transactions",
            visibility: GrantVisibility.transactions(access), decode: FinanceRows.transaction)
    }

    package func accountChoices() async throws -> [AccountChoice] {
        try await reportingCorruptRows {
            try await executor.read { connection in
                try await connection.fetch("SELECT record FROM accounts ORDER BY displayNameKey, id") { row in
                    let account = try FinanceRows.decode(Account.self, row.bytes(0))
                    return AccountChoice(
                        id: account.id, displayName: account.displayName, institutionName: account.institutionName)
                }
            }
        }
    }

    package func accounts(ids: [UUID], visibleTo access: ClientAccess) async throws -> [Account] {
        try await fetch(ids: ids, "SELECT record FROM accounts", visibility: GrantVisibility.accounts(access)) { row in
            try FinanceRows.decode(Account.self, row.bytes(0))
        }
    }

    package func accountBalances(ids: [UUID], visibleTo access: ClientAccess) async throws -> [AccountBalance] {
        try await fetch(ids: ids, "SELECT record FROM balances", visibility: GrantVisibility.balances(access, lookup: true)) {
            row in try FinanceRows.decode(AccountBalance.self, row.bytes(0))
        }
    }

    package func transactions(ids: [UUID], visibleTo access: ClientAccess) async throws -> [Transaction] {
        try await fetch(
            ids: ids, "SELECT \(FinanceRows.transactionColumns) FROM transactions",
            visibility: GrantVisibility.transactions(access, lookup: true), decode: FinanceRows.transaction)
    }

    // MARK: - History

    package func historyBounds() async throws -> (latest: Int64, compactedThrough: Int64) {
        try await reportingCorruptRows {
            try await executor.read { connection in try await FinanceChangeLog.bounds(on: connection) }
        }
    }

    package func changes(
        in stream: HistoryStream, for client: ClientIdentifier, after: Int64, through: Int64, limit: Int
    ) async throws -> [FinanceChange] {
        let arguments: [SQLValue] = [
            .text(stream.description), .integer(after), .integer(through),
            .text(StorableText.isExact(client.rawValue) ? client.rawValue : ""), .integer(Int64(max(0, limit))),
        ]
        return try await reportingCorruptRows {
            try await executor.read { connection in
                try await connection.fetch(
                    """
                    SELECT sequence, entityID, kind, client, earliestDate FROM financeChanges
                    WHERE stream = $1 AND sequence > $2 AND sequence <= $3 AND (client IS NULL OR client = $4)
                    ORDER BY sequence LIMIT $5
                    """, arguments
                ) { row in
                    let entity = try row.text(1)
                    guard let id = UUID(uuidString: entity) else { throw FinanceRows.CorruptRow(column: 1, value: entity) }
                    let kindText = try row.text(2)
                    guard let kind = FinanceChange.Kind(rawValue: kindText) else {
                        throw FinanceRows.CorruptRow(column: 2, value: kindText)
                    }
                    return FinanceChange(
                        sequence: try row.integer(0), entityID: id, kind: kind,
                        client: try row.optionalText(3).flatMap(ClientIdentifier.init(rawValue:)),
                        earliestDate: try row.optionalInteger(4).map(Microseconds.date))
                }
            }
        }
    }

    package func snapshotAccounts(visibleTo access: ClientAccess, after: String, limit: Int) async throws -> [Account] {
        try await page("SELECT record FROM accounts", visibility: GrantVisibility.accounts(access), after: after, limit: limit) {
            row in try FinanceRows.decode(Account.self, row.bytes(0))
        }
    }

    package func snapshotBalances(
        of account: UUID, visibleTo access: ClientAccess, after: String, limit: Int
    ) async throws -> [AccountBalance] {
        let visibility = StoredFilter.all([
            .compare(.column("accountID"), .equal, .text(account.uuidString)), GrantVisibility.balances(access, lookup: true),
        ])
        return try await page("SELECT record FROM balances", visibility: visibility, after: after, limit: limit) { row in
            try FinanceRows.decode(AccountBalance.self, row.bytes(0))
        }
    }

    package func snapshotTransactions(
        of account: UUID, visibleTo access: ClientAccess, after: String, limit: Int
    ) async throws -> [Transaction] {
        let visibility = StoredFilter.all([
            .compare(.column("accountID"), .equal, .text(account.uuidString)), GrantVisibility.transactions(access, lookup: true),
        ])
        return try await page(
            "SELECT \(FinanceRows.transactionColumns) FROM transactions", visibility: visibility, after: after, limit: limit,
            decode: FinanceRows.transaction)
    }

    private func page<Model: Sendable>(
        _ select: String, visibility: StoredFilter, after: String, limit: Int,
        decode: @escaping @Sendable (any SQLRow) throws -> Model
    ) async throws -> [Model] {
        var renderer = SQLRenderer(dialect: executor.dialect)
        let condition = renderer.condition(visibility)
        let sql =
            "\(select) WHERE (\(condition)) AND id > \(renderer.bind(.text(after))) ORDER BY id LIMIT \(renderer.bind(.integer(Int64(limit))))"
        return try await rows(sql, renderer.arguments, decode)
    }

    // MARK: - Reading

    /// A query: SQL selects (and, when the plan allows, orders and pages); memory does the rest,
    /// exactly as ``FinanceData/QueryPlan`` prescribes for every backend.
    private func run<Query: FinanceQuery>(
        _ plan: QueryPlan, _ query: Query, _ select: String, visibility: StoredFilter,
        decode: @escaping @Sendable (any SQLRow) throws -> Query.Model
    ) async throws -> [Query.Model] where Query.Model: Sendable {
        var renderer = SQLRenderer(dialect: executor.dialect)
        var sql = "\(select) WHERE (\(renderer.condition(visibility))) AND (\(renderer.condition(plan.filter)))"
        if !plan.needsMemory, let order = plan.order {
            sql += " ORDER BY \(renderer.ordering(order)) \(renderer.limit(query.limit, offset: query.offset))"
        }
        return try query.finish(try await rows(sql, renderer.arguments, decode), plan: plan)
    }

    private func fetch<Model: Sendable>(
        ids: [UUID], _ select: String, visibility: StoredFilter, decode: @escaping @Sendable (any SQLRow) throws -> Model
    ) async throws -> [Model] {
        var models: [Model] = []
        for start in stride(from: 0, to: ids.count, by: 500) {
            var renderer = SQLRenderer(dialect: executor.dialect)
            let chunk = ids[start..<min(start + 500, ids.count)]
            let placeholders = chunk.map { renderer.bind(.text($0.uuidString)) }.joined(separator: ", ")
            let sql = "\(select) WHERE id IN (\(placeholders)) AND (\(renderer.condition(visibility))) ORDER BY id"
            models += try await rows(sql, renderer.arguments, decode)
        }
        return models
    }

    /// A rendered statement's rows: its text is built per call, so it is not kept compiled.
    private func rows<Model: Sendable>(
        _ sql: String, _ arguments: [SQLValue], _ decode: @escaping @Sendable (any SQLRow) throws -> Model
    ) async throws -> [Model] {
        try await reportingCorruptRows {
            try await executor.read { connection in try await connection.fetch(sql, arguments, reusable: false, decode) }
        }
    }

    /// A row that does not decode means the store cannot be used: ``WalletCore/StorageError``,
    /// as for orders and access. The library's own errors pass as they are.
    private func reportingCorruptRows<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as FinanceRows.CorruptRow { throw StorageError(reason: error.description) }
    }
}
