import Foundation
import GRDB
import WalletCore
import WalletStorage

/// The store file as one snapshot, for copying it (`orders migrate`): a reader connection of its
/// own holds one read transaction, so every page sees the same committed state while other
/// processes go on writing (WAL keeps that state for it).
package struct SQLiteStoreSnapshot: StoreSnapshot {
    private let snapshot: DatabaseSnapshot
    private let path: String

    init(pool: DatabasePool, path: String) throws(StorageError) {
        do {
            snapshot = try pool.makeSnapshot()
        } catch {
            throw StorageError(sqlite: error, path: path)
        }
        self.path = path
    }

    package func rows(of table: CopiedTable, after key: [SQLValue]?, limit: Int) async throws -> [[SQLValue]] {
        let keyList = table.key.joined(separator: ", ")
        var sql = "SELECT \(table.columns.joined(separator: ", ")) FROM \(table.name)"
        var arguments: [SQLValue] = []
        if let key {
            // A row value: (a, b) > (?, ?) orders as the composite key does.
            sql += " WHERE (\(keyList)) > (\(key.map { _ in "?" }.joined(separator: ", ")))"
            arguments = key
        }
        sql += " ORDER BY \(keyList) LIMIT \(max(0, limit))"
        let (statement, statementArguments) = (sql, StatementArguments(arguments))
        return try await read { db in
            try Row.fetchAll(db, sql: statement, arguments: statementArguments).map { row in
                row.databaseValues.map(SQLValue.init)
            }
        }
    }

    package func count(of table: CopiedTable) async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.name)") ?? 0 }
    }

    package func counters() async throws -> StoreCounters {
        try await read { db in
            let tag = try Int64.fetchOne(db, sql: "SELECT value FROM orderChangeSequence WHERE id = 1") ?? 0
            let compacted = try Int64.fetchOne(db, sql: "SELECT compactedThrough FROM financeHistoryHorizon WHERE id = 1") ?? 0
            // AUTOINCREMENT remembers the highest number ever handed out, compacted rows included.
            let handedOut = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'financeChanges'") ?? 0
            let stored = try Int64.fetchOne(db, sql: "SELECT max(sequence) FROM financeChanges") ?? 0
            return StoreCounters(
                orderChangeSequence: tag, financeChangeSequence: max(handedOut, stored, compacted),
                financeCompactedThrough: compacted)
        }
    }

    /// `body` on the snapshot's connection, on ``StatementThreads``.
    private func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        let (snapshot, path) = (self.snapshot, self.path)
        return try await withTaskExecutorPreference(StatementThreads.shared) {
            do { return try snapshot.read(body) } catch { throw StorageError(sqlite: error, path: path) }
        }
    }
}

extension SQLValue {
    /// A value as SQLite stored it (REAL does not occur in this store's tables; it would be text).
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let integer): self = .integer(integer)
        case .double(let double): self = .text(String(double))
        case .string(let text): self = .text(text)
        case .blob(let data): self = .blob(data)
        }
    }
}

extension SQLiteBackend {
    /// One consistent snapshot of the store, to copy it to another backend.
    package func snapshot() throws(StorageError) -> SQLiteStoreSnapshot {
        try SQLiteStoreSnapshot(pool: pool, path: path)
    }
}
