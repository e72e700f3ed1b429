import Foundation
import Logging
import PostgresNIO
import WalletCore
import WalletPrimitives

/// How a repository reaches the database: on a connection leased from the pool for one read or
/// one write transaction, or — inside a unit of work — on that unit's connection, whose
/// transaction is already open.
///
/// A write outside a unit of work is a transaction of its own, run again from the start when the
/// server reports a serialization failure or a deadlock (SQLSTATE 40001, 40P01): up to
/// ``maximumAttempts`` times with jittered exponential backoff, then `store.unavailable`. Bodies
/// must therefore be safe to run twice: they only talk to the database.
struct PostgresExecutor: Sendable {
    static let maximumAttempts = 5

    let client: PostgresClient
    /// The unit of work's connection; nil outside one.
    let connection: PostgresConnection?
    let logger: Logger
    /// Where the database is, for messages.
    let location: String

    /// A read. `consistent`: the body runs several statements that must see one snapshot, so they
    /// run in a read-only REPEATABLE READ transaction; a single statement sees one by itself.
    func read<T: Sendable>(
        consistent: Bool = false, _ body: @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        if let connection { return try await translating { try await body(connection, logger) } }
        guard consistent else {
            return try await translating { try await client.withConnection { try await body($0, logger) } }
        }
        return try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    /// A write: in its own READ COMMITTED transaction (retried as above), or in the open one.
    /// Bodies that decide on what they read lock it (`FOR UPDATE`) or write conditionally.
    func write<T: Sendable>(_ body: @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        if let connection { return try await translating { try await body(connection, logger) } }
        return try await transaction("BEGIN", body)
    }

    /// Statements each of which is its own transaction (autocommit), or, inside a unit of work, on
    /// its connection. For bodies whose every statement is correct alone (a compare-and-swap): no
    /// lock is then held across a round trip to this process.
    func statements<T: Sendable>(_ body: @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        if let connection { return try await translating { try await body(connection, logger) } }
        return try await retrying { try await client.withConnection { try await body($0, logger) } }
    }

    /// `body` in a transaction on a leased connection, retried on serialization failures.
    func transaction<T: Sendable>(
        _ begin: String, _ body: @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        try await retrying {
            try await client.withConnection { connection in try await Self.run(begin, body, on: connection, logger: logger) }
        }
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

    /// `body` between `begin` and COMMIT on `connection`; ROLLBACK when it throws.
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
        error is PSQLError || error is PostgresDecodingError ? StorageError(postgres: error, location: location) : error
    }

    /// The same database, as seen inside a unit of work on `connection`.
    func transactional(on connection: PostgresConnection) -> PostgresExecutor {
        PostgresExecutor(client: client, connection: connection, logger: logger, location: location)
    }
}
