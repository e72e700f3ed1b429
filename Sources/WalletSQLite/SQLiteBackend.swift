import FinanceData
import Foundation
import GRDB
import OrderStorage
import Tracing
import WalletCore
import WalletPrimitives
import WalletStorage

/// The embedded backend: one SQLite file in WAL mode, through GRDB. Several processes may use
/// the file at once; writers wait for each other (busy timeout) instead of failing.
///
/// ```swift
/// let backend = try SQLiteBackend(path: "/var/lib/wallet/store.sqlite")
/// let wallet = WalletStore(backend: backend, configuration: WalletConfiguration())
/// ```
///
/// Opening refuses, changing nothing, any existing file that is not this tool's store or an
/// empty database, checks small stores with `PRAGMA quick_check`, and migrates (see
/// ``Options``). Existing stores upgrade in place: migrations are only ever added.
public final class SQLiteBackend: StorageBackend, SQLStorageBackend {
    /// How the store is opened.
    public struct Options: Sendable {
        /// False for readers: a missing store is then an error, and nothing (file, folder, lock
        /// file) is created.
        public var createIfMissing: Bool
        /// How long a writer waits for another connection's write lock.
        public var busyTimeout: TimeInterval
        /// Stores up to this size get `PRAGMA quick_check` when opened (about 2 ms per MB);
        /// ``SQLiteBackend/check(at:full:)`` checks stores of any size.
        public var quickCheckLimit: Int
        /// True for a caller that never writes (with `createIfMissing` false): in a folder this
        /// process cannot write (a read-only mount, another user's folder), the store is read as
        /// it is — no lock file, SQLite's `immutable=1` — instead of refused. Exact while nobody
        /// writes it; a store whose `-wal` holds changes is refused, naming the fix.
        public var readsOnly: Bool
        /// Where each read and unit of work is a span (swift-distributed-tracing): nil for the
        /// tracer bootstrapped with `InstrumentationSystem` when the store opens — none, no spans.
        public var tracer: (any Tracer)?
        /// Who may read the files a new store is created as (``StoreFileMode``): the owner alone
        /// unless told otherwise, whatever the umask.
        public var fileMode: StoreFileMode

        public init(
            createIfMissing: Bool = true, busyTimeout: TimeInterval = 60, quickCheckLimit: Int = 16 << 20,
            readsOnly: Bool = false, tracer: (any Tracer)? = nil, fileMode: StoreFileMode = .ownerOnly
        ) {
            self.createIfMissing = createIfMissing
            self.busyTimeout = busyTimeout
            self.quickCheckLimit = quickCheckLimit
            self.readsOnly = readsOnly
            self.tracer = tracer
            self.fileMode = fileMode
        }
    }

    /// The store file.
    public let path: String
    let pool: DatabasePool
    let executor: SQLiteExecutor
    package let repositories: SQLRepositories
    /// ``executor``, traced when a tracer is set: what the repositories run on.
    package let sqlExecutor: any SQLExecutor
    public var location: String { path }

    /// Opens the store at `path` (creating it unless `options` say otherwise) and migrates it.
    public convenience init(path: String, options: Options = Options()) throws(StorageError) {
        let pool = try StoreDatabase.open(
            at: path, migrator: SQLiteSchema.migrator, busyTimeout: options.busyTimeout,
            createIfMissing: options.createIfMissing, quickCheckLimit: options.quickCheckLimit, readsOnly: options.readsOnly,
            fileMode: options.fileMode)
        self.init(pool: pool, path: path, tracer: options.tracer)
    }

    init(pool: DatabasePool, path: String, tracer: (any Tracer)? = nil) {
        self.pool = pool
        self.path = path
        executor = SQLiteExecutor(pool: pool, readers: ReaderConnections(of: pool), gate: WriteGate())
        sqlExecutor = TracedSQLExecutor.wrapping(executor, tracer: tracer, system: "sqlite")
        repositories = SQLRepositories(executor: sqlExecutor)
    }

    public func close() async throws {
        try closeConnections()
    }

    /// The read connections, then the pool (``ReaderConnections``: its writer closes last); the
    /// pool is closed even when a read connection fails to close, whose error is then thrown.
    private func closeConnections() throws {
        var failure: (any Error)?
        do { try executor.readers.close() } catch { failure = error }
        try pool.close()
        if let failure { throw failure }
    }

    /// The statement threads (``StatementThreads``), shared by every SQLite store of the process.
    public var taskExecutor: any TaskExecutor { StatementThreads.shared }

    /// Writes of this process waiting at the backend's write gate now — the only place a waiting
    /// writer can be seen from (the gate is in-process; SQLite's own lock is not asked while it is
    /// held). For tests that race a write against a unit of work.
    package var writersAtGate: Int { executor.gate.waitingCount }

    /// Checks an existing store without changing it: `PRAGMA integrity_check` when `full`, else
    /// `PRAGMA quick_check`. Returns `["ok"]`, or up to 100 problems.
    ///
    /// - Throws: ``WalletCore/StorageError`` when there is no store at `path` or it is not one.
    public static func check(at path: String, full: Bool) throws(StorageError) -> [String] {
        try StoreDatabase.check(at: path, full: full)
    }

    /// Rewrites the store at `path` without free pages and switches it to incremental
    /// auto-vacuum (stores made before it was the default grow back only by reuse); returns the
    /// file's size before and after. Takes the write lock for the whole rewrite.
    ///
    /// - Throws: ``WalletCore/StorageError`` when there is no store at `path`, it is not one, or
    ///   the disk has no room for the copy SQLite writes.
    public static func compact(at path: String) async throws(StorageError) -> (before: Int, after: Int) {
        let backend = try SQLiteBackend(path: path, options: Options(createIfMissing: false))
        defer { try? backend.closeConnections() }
        func size() -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0
        }
        do {
            try await backend.pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            let before = size()
            try await backend.pool.writeWithoutTransaction { db in
                try FreePages.compact(db)
                _ = try db.checkpoint(.truncate)
            }
            return (before, size())
        } catch {
            throw error as? StorageError ?? StorageError(sqlite: error, path: path)
        }
    }

    /// What the owner of a damaged store should do.
    public static func corruptionAdvice(path: String?) -> String {
        StoreDatabase.corruptionAdvice(path: path)
    }
}
