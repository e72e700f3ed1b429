import Synchronization
import TestArchiveTable
import WalletPostgres
import WalletSQLite
import WalletStorage

/// A write started from another task while a unit of work is open, and the explicit wait for the
/// race to be set up: until the write waits behind the unit (``blockedWriters(of:)``) or has
/// finished without having to (PostgreSQL writing rows
/// the unit does not hold). Never a sleep "to let the other task reach its lock": under the whole
/// suite's load it might not have, and the test would pass without racing.
public final class RacingWrite<Value: Sendable>: Sendable {
    public let task: Task<Value, any Error>
    private let finished: Finished

    /// Set once the write has returned or thrown.
    private final class Finished: Sendable {
        let flag = Mutex(false)
    }

    public init(_ body: @escaping @Sendable () async throws -> Value) {
        let finished = Finished()
        self.finished = finished
        task = Task {
            defer { finished.flag.withLock { $0 = true } }
            return try await body()
        }
    }

    /// Returns once the write waits behind another writer of `backend`, or is done; throws when
    /// neither happened within a minute.
    public func waitUntilBlockedOrDone(on backend: any StorageBackend) async throws {
        let ready = try await Poll.until(timeout: .seconds(60), every: .milliseconds(2)) {
            if finished.flag.withLock({ $0 }) { return true }
            return try await Self.blockedWriters(of: backend) > 0
        }
        if !ready { throw RaceNotObservable() }
    }

    /// How many writes of `backend`'s store wait behind another writer now: SQLite's at the
    /// backend's write gate, PostgreSQL's on a lock in the store's database.
    static func blockedWriters(of backend: any StorageBackend) async throws -> Int {
        switch backend {
        case let sqlite as SQLiteBackend:
            return sqlite.writersAtGate
        case let postgres as PostgresBackend:
            return try await postgres.sqlExecutor.read { connection in
                Int(
                    try await connection.integer(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
                        []) ?? 0)
            }
        default:
            throw RaceNotObservable()
        }
    }

    public var value: Value {
        get async throws { try await task.value }
    }
}

/// The racing write neither waited nor finished within a minute, or the backend cannot say.
public struct RaceNotObservable: Error {}
