import Foundation
import GRDB

/// Opens the embedded SQLite store: a GRDB `DatabasePool` in WAL mode, with a busy timeout so
/// that writers from several processes wait their turn instead of failing with "database is
/// locked", and with schema migrations applied.
///
/// Opening (creating the file, switching to WAL, migrating) is serialized across processes with
/// an advisory lock on a `<path>.lock` file beside the database.
///
/// One file serves every module: each registers its migrations under its own prefix
/// (`core.`, `orders.`, `finance.`). A module may open the file with only its own migrations; the
/// file is refused only when it holds a migration *with one of the migrator's prefixes* that the
/// migrator does not know, i.e. when a newer version of the same module wrote it.
public enum StoreDatabase {
    /// How long a writer waits for another connection's write lock before giving up.
    public static let defaultBusyTimeout: TimeInterval = 60

    public static func open(
        at path: String, migrator: DatabaseMigrator, busyTimeout: TimeInterval = defaultBusyTimeout
    ) throws(StorageError) -> DatabasePool {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw StorageError(reason: "cannot create \(url.deletingLastPathComponent().path): \(error.localizedDescription)")
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            // WAL with synchronous=NORMAL: a killed process never leaves a half-written
            // transaction; only a power loss may drop the last commits.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            // Reads through a memory map skip a copy per page: 20–40 % faster catch-ups and
            // large queries (Benchmarks/FinanceQueries). The store is our own file, not input.
            try db.execute(sql: "PRAGMA mmap_size = 1073741824")
        }
        return try withExclusiveLock(path + ".lock") { () throws(StorageError) -> DatabasePool in
            do {
                let pool = try DatabasePool(path: path, configuration: configuration)
                if let unknown = try pool.read({ db in try unknownMigrations(in: db, for: migrator) }).first {
                    throw StorageError(reason: "\(path) was written by a newer version of this tool (migration \(unknown))")
                }
                try migrator.migrate(pool)
                return pool
            } catch let error as StorageError {
                throw error
            } catch {
                throw StorageError(reason: "cannot open \(path): \(describe(error))")
            }
        }
    }

    /// Applied migrations that share a prefix with the migrator's but that it does not know.
    static func unknownMigrations(in db: Database, for migrator: DatabaseMigrator) throws -> [String] {
        guard try db.tableExists("grdb_migrations") else { return [] }
        let known = Set(migrator.migrations)
        let prefixes = Set(known.compactMap { $0.split(separator: ".").first.map(String.init) })
        return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier").filter { identifier in
            guard let prefix = identifier.split(separator: ".").first.map(String.init) else { return false }
            return prefixes.contains(prefix) && !known.contains(identifier)
        }
    }

    /// A short description of a GRDB or SQLite error for users.
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? DatabaseError else { return String(describing: error) }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return "another process kept the store locked for longer than the busy timeout"
        case .SQLITE_NOTADB:
            return "the file is not an SQLite database"
        case .SQLITE_CORRUPT:
            return "the database file is damaged"
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN:
            return "the database cannot be opened for writing (\(error.message ?? "permission denied"))"
        default:
            return error.message ?? error.description
        }
    }

    private static func withExclusiveLock<T>(
        _ lockPath: String, _ body: () throws(StorageError) -> T
    ) throws(StorageError) -> T {
        let descriptor = Glibc.open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StorageError(reason: "cannot open \(lockPath): \(String(cString: strerror(errno)))")
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
