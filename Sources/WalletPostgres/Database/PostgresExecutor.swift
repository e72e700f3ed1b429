import Foundation
import Logging
import PostgresNIO
import WalletCore
import WalletPrimitives
import WalletStorage
import _ConnectionPoolModule

/// ``WalletStorage/SQLExecutor`` over a pool of connections: a read on a leased connection; a
/// unit of work as a READ COMMITTED transaction on one, run again from the start when the server
/// reports a serialization failure or a deadlock (SQLSTATE 40001, 40P01): up to
/// ``maximumAttempts`` times with jittered exponential backoff, then `store.unavailable`. Bodies
/// must therefore be safe to run twice: they only talk to the database. Bodies that decide on
/// what they read lock it (``PostgresDialect/lockingRead``) or write conditionally.
struct PostgresExecutor: SQLExecutor {
    static let maximumAttempts = 5

    let servers: PostgresServers
    let logger: Logger
    /// Where the database is, for messages.
    let location: String
    /// Whether reusable statements run prepared (the URL's `prepared`, true unless a pooler in
    /// transaction mode sits between).
    let prepares: Bool

    var dialect: any SQLDialect { PostgresDialect() }

    func read<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await onThreads { try await translating { try await servers.withConnection { try await body(connection($0)) } } }
    }

    func write<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await transaction("BEGIN") { connection, logger in
            try await body(
                PostgresSQLConnection(
                    connection: connection, logger: logger, location: location, prepares: prepares, inTransaction: true))
        }
    }

    /// Reads as they are; each committed write a transaction of its own, its `BEGIN`, statement and
    /// `COMMIT` sent at once. Run again from the start on a serialization failure or deadlock.
    func writeStatements<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await onThreads { try await retrying { try await servers.withConnection { try await body(connection($0)) } } }
    }

    private func connection(_ connection: PostgresConnection) -> PostgresSQLConnection {
        PostgresSQLConnection(
            connection: connection, logger: logger, location: location, prepares: prepares, inTransaction: false)
    }

    /// `body` in a transaction on a leased connection, on ``PostgresThreads``, retried on
    /// serialization failures.
    func transaction<T: Sendable>(
        _ begin: String, _ body: @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        try await onThreads {
            try await retrying {
                try await servers.withConnection { connection in
                    try await Self.run(begin, body, on: connection, logger: logger)
                }
            }
        }
    }

    /// `work` on ``PostgresThreads`` — where every read's and unit of work's body runs, whoever
    /// calls (docs/design.md, "One threading model"); no hop for a caller already there.
    private func onThreads<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(PostgresThreads.shared, operation: work)
    }

    /// `attempt` again after a serialization failure or deadlock, up to ``maximumAttempts`` times:
    /// after 10, 20, 40, 80 ms, each with up to as much again at random, so that two transactions
    /// that collided do not collide again in step.
    private func retrying<T: Sendable>(_ attempt: () async throws -> T) async throws -> T {
        var attempts = 1
        while true {
            do {
                return try await attempt()
            } catch  where PostgresFailure.isRetryable(error) && attempts < Self.maximumAttempts {
                let base = 10 << (attempts - 1)
                try await Task.sleep(for: .milliseconds(base + Int.random(in: 0...base)))
                attempts += 1
            } catch {
                throw translated(error)
            }
        }
    }

    /// `body` between `begin` and COMMIT on `connection`; ROLLBACK when it throws. The body runs
    /// where its caller runs (``PostgresThreads``), each statement sent on the connection's loop.
    static func run<T: Sendable>(
        _ begin: String, _ body: @Sendable (PostgresConnection, Logger) async throws -> T, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> T {
        try await connection.run(begin, logger: logger)
        do {
            let result = try await body(connection, logger)
            try await connection.run("COMMIT", logger: logger)
            return result
        } catch {
            // A failed ROLLBACK means the connection is broken; the pool drops it.
            try? await connection.run("ROLLBACK", logger: logger)
            throw error
        }
    }

    private func translating<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw translated(error) }
    }

    /// The database's errors become `StorageError`; every other error (the library's own, a
    /// unit of work's body's, cancellation) passes as it is.
    func translated(_ error: any Error) -> any Error {
        let fromDatabase =
            error is PSQLError || error is PostgresDecodingError || error is ConnectionLost || error is ConnectionPoolError
        return fromDatabase ? StorageError(postgres: error, location: location) : error
    }
}
