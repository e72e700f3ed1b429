import GRDB
import Synchronization
import WalletCore

/// The store's read connections, each used by one statement thread at a time: what every read
/// of ``SQLiteExecutor`` runs on.
///
/// GRDB's `DatabasePool` hands each read to a reader through its pool (a semaphore and a
/// barrier queue, which two statement threads reading at once contend for) and runs
/// `PRAGMA schema_version` before it, to keep GRDB's schema cache — which no statement here uses
/// — current. On a device's GET that was a tenth of the server's time, five times the SELECT
/// itself (Benchmarks/README.md, issue 56). These are GRDB connections too (`DatabaseQueue`,
/// read-only, the pool's configuration), taken from a list under a lock nobody holds for longer
/// than a pop or a push; SQLite re-prepares a cached statement itself when another process
/// changed the schema. Each statement outside a unit of work is a read transaction of its own,
/// as on the pool's readers: it sees every commit made before it, by any process.
///
/// At most one connection per statement thread exists, since a read runs synchronously on the
/// thread that asked for it; more are made only if something else reads at the same time.
final class ReaderConnections: Sendable {
    private struct State {
        var idle: [DatabaseQueue] = []
        var closed = false
    }

    /// Held so that the pool outlives these: the last connection to a WAL store checkpoints it
    /// and removes its `-wal` as it closes, which the pool's writer can do and a read-only
    /// connection cannot.
    private let pool: DatabasePool
    private let configuration: Configuration
    private let state = Mutex(State())

    /// Connections to `pool`'s file, as its readers are configured.
    init(of pool: DatabasePool) {
        self.pool = pool
        var configuration = pool.configuration
        configuration.readonly = true
        configuration.label = "WalletSQLite.reader"
        self.configuration = configuration
    }

    /// `body` on an idle connection, opened when there is none.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let connection = try take()
        defer { giveBack(connection) }
        return try connection.inDatabase(body)
    }

    /// Closes every connection; reads after this fail as on a closed pool.
    func close() throws {
        let connections = state.withLock { state in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        for connection in connections { try connection.close() }
    }

    deinit {
        for connection in state.withLock({ $0.idle }) { try? connection.close() }
    }

    private func take() throws -> DatabaseQueue {
        let (idle, closed) = state.withLock { state in (state.idle.popLast(), state.closed) }
        if closed { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed") }
        if let idle { return idle }
        return try DatabaseQueue(path: pool.path, configuration: configuration)
    }

    private func giveBack(_ connection: DatabaseQueue) {
        let closed = state.withLock { state in
            if !state.closed { state.idle.append(connection) }
            return state.closed
        }
        if closed { try? connection.close() }
    }
}
