import Foundation
import GRDB
import WalletCore
import WalletStorage

/// ``WalletStorage/SQLExecutor`` over the store's `DatabasePool`, its statements on
/// ``StatementThreads`` — never on Swift concurrency's cooperative pool, where a blocked statement
/// would hold one of its few threads.
///
/// A read runs each statement on a reader connection (``ReaderConnections``), directly on the
/// statement thread: in WAL mode a reader never waits for a writer, and a lone SELECT runs in an
/// implicit transaction of its own (no BEGIN and COMMIT around it), so a point lookup costs a few
/// microseconds where a further hop onto GRDB's queue would cost far more (Benchmarks).
///
/// A unit of work takes the backend's ``WriteGate``, begins `IMMEDIATE` on the pool's writer
/// connection (at once when the database is free, ``ImmediateBegin``; otherwise
/// waiting off the thread for another process's write to end), then
/// runs each statement on that connection, whose transaction stays open between them — GRDB's
/// `allowsUnsafeTransactions`, safe because the gate keeps every other write of this process
/// out until COMMIT or ROLLBACK. This is how repositories written once with `await`ed
/// statements (``WalletStorage/SQLRepositories``) run on GRDB, whose own transactions are
/// synchronous closures (docs/design.md, "Storage written once").
struct SQLiteExecutor: SQLExecutor {
    let pool: DatabasePool
    let readers: ReaderConnections
    let gate: WriteGate

    var dialect: any SQLDialect { SQLiteDialect() }

    func read<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        let (pool, readers) = (self.pool, self.readers)
        return try await withTaskExecutorPreference(StatementThreads.shared) {
            try await body(SQLiteConnection(pool: pool, readers: readers))
        }
    }

    func write<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        let (pool, gate) = (self.pool, self.gate)
        return try await withTaskExecutorPreference(StatementThreads.shared) {
            try await gate.run {
                do {
                    if try !ImmediateBegin.withoutWaiting(on: pool) {
                        try await pool.writeWithoutTransaction { db in try db.beginTransaction(.immediate) }
                    }
                } catch {
                    throw StorageError(sqlite: error, path: pool.path)
                }
                let connection = SQLiteConnection(pool: pool, readers: nil)
                do {
                    let result = try await body(connection)
                    try connection.end(commit: true)
                    return result
                } catch {
                    try? connection.end(commit: false)
                    throw error
                }
            }
        }
    }

    /// One writer at a time already makes every read-decide-write of a unit hold.
    func writeStatements<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await write(body)
    }

}

/// ``WalletStorage/SQLConnection`` on the store: each statement on one of its
/// ``ReaderConnections``, or on the pool's writer inside the unit of work that made it. Database
/// errors become ``WalletCore/StorageError`` (`store.corrupt` for a damaged file); others pass.
struct SQLiteConnection: SQLConnection {
    let pool: DatabasePool
    /// Nil inside a unit of work: every statement then runs on the writer.
    let readers: ReaderConnections?

    func fetch<T>(
        _ sql: String, _ arguments: [SQLValue], reusable: Bool, _ decode: (any SQLRow) throws -> T
    ) async throws -> [T] {
        var results: [T] = []
        try run(sql, arguments, reusable: reusable) { row in
            results.append(try decode(row))
            return true
        }
        return results
    }

    func fetchOne<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (any SQLRow) throws -> T) async throws -> T? {
        var result: T?
        try run(sql, arguments, reusable: true) { row in
            result = try decode(row)
            return false
        }
        return result
    }

    func integer(_ sql: String, _ arguments: [SQLValue]) async throws -> Int64? {
        var result: Int64?
        try run(sql, arguments, reusable: true) { row in
            result = try row.optionalInteger(0)
            return false
        }
        return result
    }

    func text(_ sql: String, _ arguments: [SQLValue]) async throws -> String? {
        var result: String?
        try run(sql, arguments, reusable: true) { row in
            result = try row.optionalText(0)
            return false
        }
        return result
    }

    func execute(_ sql: String, _ arguments: [SQLValue], reusable: Bool) async throws {
        try run(sql, arguments, reusable: reusable) { _ in true }
    }

    /// Ends the unit of work on the writer.
    func end(commit: Bool) throws {
        do {
            try pool.writeWithoutTransaction { db in
                if commit {
                    try db.commit()
                } else if db.isInsideTransaction {
                    try db.rollback()
                }
            }
        } catch {
            throw StorageError(sqlite: error, path: pool.path)
        }
    }

    /// `body` on the connection itself: SQLite's own housekeeping (``SQLiteDialect``), inside the
    /// unit of work.
    func onDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            guard let readers else { return try pool.writeWithoutTransaction(body) }
            return try readers.read(body)
        } catch let error as DatabaseError {
            throw StorageError(sqlite: error, path: pool.path)
        } catch let error as UnreadableColumn {
            throw StorageError.unreadableRow(column: error.name, in: pool.path)
        } catch is RowDecodingError {
            // GRDB's own description quotes the statement and its arguments.
            throw StorageError.unreadableRow(column: nil, in: pool.path)
        }
    }

    /// Runs one statement, handing `onRow` each row while it returns true. Synchronous on
    /// purpose: the statement runs on this statement thread (see ``SQLiteExecutor``).
    private func run(
        _ sql: String, _ arguments: [SQLValue], reusable: Bool, _ onRow: (SQLiteRow) throws -> Bool
    ) throws {
        try onDatabase { db in
            let statement = reusable ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
            try PreparedStatement(statement, sql: sql).run(arguments, onRow)
        }
    }
}
