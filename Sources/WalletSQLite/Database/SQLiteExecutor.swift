import Foundation
import GRDB
import WalletCore
import WalletPrimitives

/// How a repository reaches the database: on its own (reads on the calling thread from a reader
/// connection, writes through the backend's ``WriteGate`` in their own transaction), or inside a
/// unit of work (everything on the writer connection, whose transaction is already open and whose
/// gate is already held).
struct SQLiteExecutor: Sendable {
    let pool: DatabasePool
    let gate: WriteGate
    let inTransaction: Bool

    /// A read. Outside a unit of work it runs on the calling thread: in WAL mode a reader never
    /// waits for a writer, and GRDB runs an uncontended read on the caller's thread, so a point
    /// lookup costs ~30 µs where an async hop costs ~200 µs more (measured). Inside, it reads on
    /// the writer connection, to see the unit's own writes.
    ///
    /// Errors of the library (thrown by `body`) pass through; database errors become
    /// ``WalletCore/StorageError`` (`store.corrupt` for a damaged file).
    ///
    /// `singleStatement`: `body` runs exactly one statement. SQLite runs a lone SELECT in an
    /// implicit transaction of its own, so it reads one snapshot without GRDB's BEGIN and COMMIT
    /// around it — a third of a point lookup's cost, on the service's request path.
    func read<T>(singleStatement: Bool = false, _ body: (Database) throws -> T) throws -> T {
        do {
            if inTransaction { return try pool.writeWithoutTransaction(body) }
            return singleStatement ? try pool.unsafeRead(body) : try pool.read(body)
        } catch {
            throw translated(error)
        }
    }

    /// A write, in a transaction of its own or in the open one.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            if inTransaction { return try await pool.writeWithoutTransaction(body) }
            let pool = self.pool
            return try await gate.run { try await pool.write(body) }
        } catch {
            throw translated(error)
        }
    }

    private func translated(_ error: any Error) -> any Error {
        error is any WalletError || error is CancellationError ? error : StorageError(sqlite: error, path: pool.path)
    }

    /// The same connection, as seen inside a unit of work.
    var transactional: SQLiteExecutor {
        SQLiteExecutor(pool: pool, gate: gate, inTransaction: true)
    }
}
