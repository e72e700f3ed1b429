import Foundation
import GRDB
import WalletCore
import WalletPrimitives

/// Opens the embedded SQLite store: a GRDB `DatabasePool` in WAL mode, with a busy timeout so
/// that writers from several processes wait their turn instead of failing with "database is
/// locked", and with schema migrations applied.
///
/// Opening (creating the file, switching to WAL, migrating) is serialized across processes with
/// an advisory lock on a `<path>.lock` file beside the database. A reader in a folder it cannot
/// write (a read-only mount, another user's folder) reads the file as it is instead, without the
/// lock (``openSnapshot(_:configuration:migrator:)``).
///
/// One file serves every module: each registers its migrations under its own prefix
/// (`core.`, `orders.`, `finance.`). A module may open the file with only its own migrations; the
/// file is refused only when it holds a migration *with one of the migrator's prefixes* that the
/// migrator does not know, i.e. when a newer version of the same module wrote it.
///
/// What opening refuses, changing nothing (``StoreFile``): another application's SQLite file, or
/// anything that is not one. What it checks: `PRAGMA quick_check` on stores of at most
/// `quickCheckLimit` bytes (about 2 ms per MB: 1.3 s for a million orders, too slow for every
/// open; ``check(at:full:)`` and `orders doctor` check stores of any size).
enum StoreDatabase {
    /// How long a writer waits for another connection's write lock before giving up.
    static let defaultBusyTimeout: TimeInterval = 60
    /// Stores up to this size get `PRAGMA quick_check` each time they are opened (≈ 30 ms).
    static let defaultQuickCheckLimit = 16 << 20

    /// Opens the store at `path`.
    ///
    /// - Parameters:
    ///   - createIfMissing: false for readers: a missing store is then an error, and nothing
    ///     (file, folder, lock file) is created.
    ///   - quickCheckLimit: the largest store checked with `PRAGMA quick_check` while opening.
    ///   - readsOnly: the caller never writes: in a folder this process cannot write, the store is
    ///     read as it is (``openSnapshot(_:configuration:migrator:)``) instead of refused.
    ///   - fileMode: the mode of a new store's files, and of its folder when it creates one.
    static func open(
        at path: String, migrator: DatabaseMigrator, busyTimeout: TimeInterval = defaultBusyTimeout,
        createIfMissing: Bool = true, quickCheckLimit: Int = defaultQuickCheckLimit, readsOnly: Bool = false,
        fileMode: StoreFileMode = .ownerOnly
    ) throws(StorageError) -> DatabasePool {
        var created = false
        switch StoreFile.inspect(path) {
        case .missing:
            guard createIfMissing else { throw StorageError(reason: "there is no store at \(path)") }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(
                    at: folder, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: Int(fileMode.folderMode)])
            } catch {
                throw StorageError(reason: "cannot create \(folder.path): \(error.localizedDescription)")
            }
            created = try StoreFile.create(path, mode: fileMode.fileMode)
        case .foreign(let why):
            throw refusal(path, why)
        case .usable:
            break
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        // A unit of work keeps its transaction open across several writer accesses; the
        // backend's WriteGate keeps every other write out meanwhile.
        configuration.allowsUnsafeTransactions = true
        // A reader connection for every statement thread: none of them ever waits for one.
        configuration.maximumReaderCount = max(configuration.maximumReaderCount, StatementThreads.shared.count)
        configuration.prepareDatabase { db in
            // WAL with synchronous=NORMAL: a killed process never leaves a half-written
            // transaction; only a power loss may drop the last commits.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // A new store gives back the pages of what is deleted (``FreePages``). SQLite takes
            // this only while the file is empty, so the writer says it on opening, before anything
            // is written; on an older store it changes nothing (`orders doctor --compact`).
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL") }
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            // Reads through a memory map skip a copy per page: 20–40 % faster catch-ups and
            // large queries (Benchmarks/FinanceQueries). The store is our own file, not input.
            try db.execute(sql: "PRAGMA mmap_size = 1073741824")
        }
        let lockPath = path + ".lock"
        let lockExisted = FileManager.default.fileExists(atPath: lockPath)
        if readsOnly, !createIfMissing, !folderIsWritable(path) {
            return try openSnapshot(path, configuration: configuration, migrator: migrator)
        }
        do {
            return try withExclusiveLock(lockPath, mode: fileMode.fileMode) { () throws(StorageError) -> DatabasePool in
                try openLocked(path, configuration: configuration, migrator: migrator, quickCheckLimit: quickCheckLimit)
            }
        } catch {
            // A store that could not be opened leaves no file it created, and no lock file, behind.
            if created, (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 0 { unlink(path) }
            if !lockExisted, !FileManager.default.fileExists(atPath: path) { unlink(lockPath) }
            throw error
        }
    }

    /// Whether this process may create files beside the store (the lock file, SQLite's `-wal` and
    /// `-shm`).
    private static func folderIsWritable(_ path: String) -> Bool {
        access(URL(fileURLWithPath: path).deletingLastPathComponent().path, W_OK) == 0
    }

    /// A reader's store in a folder it cannot write (a read-only mount, another user's folder):
    /// read as an immutable file (SQLite's `immutable=1`: no lock file, no `-shm`), which is
    /// exact only while nobody writes it — so a store with a `-wal` holding commits (a writer at
    /// work, or one that stopped without finishing) is refused, as is one that needs a migration.
    private static func openSnapshot(
        _ path: String, configuration base: Configuration, migrator: DatabaseMigrator
    ) throws(StorageError) -> DatabasePool {
        var configuration = base
        configuration.readonly = true
        return try pool(path, file: try snapshotURI(path), configuration: configuration) { pool in
            try checkOwnership(pool, path: path, migrator: migrator)
            guard try pool.read({ db in try migrator.hasCompletedMigrations(db) }) else {
                throw StorageError(
                    reason:
                        "\(path) was written by an older version of this tool and is upgraded when opened with write access; "
                        + "this process cannot write to its folder: open it once as a user who can (e.g. `orders list`)")
            }
        }
    }

    /// A pool on `file` (the store's path, or a URI naming it), made ready by `prepare`; when that
    /// fails, the pool is closed and the failure said about `path`.
    private static func pool(
        _ path: String, file: String, configuration: Configuration, _ prepare: (DatabasePool) throws -> Void
    ) throws(StorageError) -> DatabasePool {
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: file, configuration: configuration)
        } catch {
            throw opening(path, error)
        }
        do {
            try prepare(pool)
            return pool
        } catch let error as StorageError {
            try? pool.close()
            throw error
        } catch {
            try? pool.close()
            throw opening(path, error)
        }
    }

    /// Refuses another application's file, and a store that a newer version of a module wrote.
    private static func checkOwnership(_ pool: DatabasePool, path: String, migrator: DatabaseMigrator) throws {
        if case .foreign(let why) = try pool.read(StoreFile.classify) { throw refusal(path, why) }
        if let unknown = try pool.read({ db in try unknownMigrations(in: db, for: migrator) }).first {
            throw StorageError(reason: "\(path) was written by a newer version of this tool (migration \(unknown))")
        }
    }

    /// The store as an immutable SQLite URI (`file:…?immutable=1`), unless a `-wal` file beside
    /// it holds changes that reading it so would miss.
    static func snapshotURI(_ path: String) throws(StorageError) -> String {
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        if wal > 0 {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            throw StorageError(
                reason:
                    "\(path) is being written by another process, or one stopped before finishing (its -wal file holds changes), "
                    + "and this process cannot write to \(folder) to read them safely: read it with write access to the folder, "
                    + "or once the writer has stopped")
        }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return "file:" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path) + "?immutable=1"
    }

    private static func openLocked(
        _ path: String, configuration: Configuration, migrator: DatabaseMigrator, quickCheckLimit: Int
    ) throws(StorageError) -> DatabasePool {
        try pool(path, file: path, configuration: configuration) { pool in
            // The authoritative look, on the connection that would write (a WAL-mode file can
            // only be judged here).
            try checkOwnership(pool, path: path, migrator: migrator)
            let size = try pool.read { db in
                (try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0) * (try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
            }
            if size <= quickCheckLimit {
                let problems = try pool.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(20)") }
                if problems != ["ok"] { throw damaged(path, problems) }
            }
            // Stamped before the first migration: a process killed while it creates the store
            // (GRDB makes its migration table before the first migration's transaction) leaves a
            // file the next opening recognises and finishes, not "another application's database".
            try pool.writeWithoutTransaction { db in
                if try Int32.fetchOne(db, sql: "PRAGMA application_id") != StoreFile.applicationID {
                    try db.execute(sql: "PRAGMA application_id = \(StoreFile.applicationID)")
                }
            }
            try migrator.migrate(pool)
        }
    }

    /// Checks an existing store without changing it: `PRAGMA integrity_check` when `full`, else
    /// `PRAGMA quick_check` (which skips index contents). Returns "ok", or up to 100 problems.
    ///
    /// - Throws: ``StorageError`` when there is no store at `path` or it cannot be opened.
    static func check(at path: String, full: Bool) throws(StorageError) -> [String] {
        switch StoreFile.inspect(path) {
        case .missing: throw StorageError(reason: "there is no store at \(path)")
        case .foreign(let why): throw refusal(path, why)
        case .usable: break
        }
        var configuration = Configuration()
        configuration.readonly = true
        let readable = folderIsWritable(path) ? path : try snapshotURI(path)
        do {
            let queue = try DatabaseQueue(path: readable, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                try String.fetchAll(db, sql: full ? "PRAGMA integrity_check(100)" : "PRAGMA quick_check(100)")
            }
        } catch {
            if isCorruption(error) { return [describe(error)] }
            throw opening(path, error)
        }
    }

    /// Whether SQLite reported a damaged file.
    static func isCorruption(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// What a damaged store's owner should do.
    static func corruptionAdvice(path: String?) -> String {
        let file = path ?? "the store file"
        return "SQLite found damage in \(file). Stop writing to it and keep a copy; `orders doctor` lists the damage. "
            + "Restore the file from a backup, or recover what is readable with the sqlite3 shell: "
            + "sqlite3 \(path ?? "STORE") .recover | sqlite3 recovered.sqlite"
    }

    private static func damaged(_ path: String, _ problems: [String]) -> StorageError {
        let first = problems.first.map { MessageText.visible($0.replacingOccurrences(of: "\n", with: "; ")) } ?? "unknown damage"
        return StorageError(reason: corruptionAdvice(path: path) + " (first problem: \(first))", isCorrupt: true)
    }

    private static func refusal(_ path: String, _ why: String) -> StorageError {
        StorageError(reason: "\(path) is not a wallet-orders store: \(why). Nothing was changed; use a new file's path")
    }

    private static func opening(_ path: String, _ error: any Error) -> StorageError {
        if isCorruption(error) { return StorageError(reason: corruptionAdvice(path: path), isCorrupt: true) }
        return StorageError(reason: "cannot open \(path): \(describe(error))")
    }

    /// Applied migrations that share a prefix with the migrator's but that it does not know.
    static func unknownMigrations(in db: Database, for migrator: DatabaseMigrator) throws -> [String] {
        guard try db.tableExists("grdb_migrations") else { return [] }
        let known = Set(migrator.migrations)
        let prefixes = Set(known.map(SQLiteSchema.modulePrefix(of:)))
        return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier").filter { identifier in
            prefixes.contains(SQLiteSchema.modulePrefix(of: identifier)) && !known.contains(identifier)
        }
    }

    /// A short description of a GRDB or SQLite error for users.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DatabaseError else { return String(describing: error) }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return "another process kept the store locked for longer than the busy timeout"
        case .SQLITE_NOTADB:
            return "the file is not an SQLite database"
        case .SQLITE_CORRUPT:
            return "the database file is damaged"
        case .SQLITE_FULL:
            return "the disk holding the store is full (\(error.message ?? "database or disk is full")); "
                + "the write was rolled back: free space, then run again"
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN:
            return "the database cannot be opened for writing (\(error.message ?? "permission denied"))"
        default:
            return error.message ?? error.description
        }
    }

    private static func withExclusiveLock<T>(
        _ lockPath: String, mode: mode_t, _ body: () throws(StorageError) -> T
    ) throws(StorageError) -> T {
        let descriptor = Glibc.open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            if errno == EROFS || errno == EACCES || errno == EPERM {
                throw StorageError(
                    reason:
                        "the store cannot be written: its folder does not allow it (\(lockPath): \(reason)); nothing was changed")
            }
            throw StorageError(reason: "cannot open \(lockPath): \(reason)")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw StorageError(reason: "cannot lock \(lockPath): \(String(cString: strerror(errno)))")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
