import Foundation
import GRDB
import WalletCore
import WalletPrimitives

/// What a store path holds, told without changing it: nothing, a file this tool may use (its own
/// store, or an empty database), or another application's file, which is refused.
///
/// A store is recognised by its SQLite application id (`PRAGMA application_id`, bytes 68–71 of
/// the header), which every store gets when it is opened; stores written before the id existed
/// are recognised by their migration table, whose every migration has one of this tool's module
/// prefixes.
enum StoreFile {
    enum Identity: Equatable {
        case missing
        /// This tool's store, an empty database, or (for a WAL-mode file) not decidable without
        /// opening it for writing; ``classify(_:)`` decides on the open connection.
        case usable
        case foreign(String)
    }

    /// Creates the empty file of a new store with `mode` exactly, whatever the umask, before
    /// SQLite opens it: SQLite creates the `-wal` and `-shm` with the database file's mode. A
    /// file another process created meanwhile is left to it. Returns whether this call created it.
    static func create(_ path: String, mode: mode_t) throws(StorageError) -> Bool {
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw StorageError(reason: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard fchmod(descriptor, mode) == 0 else {
            throw StorageError(reason: "cannot set the mode of \(path): \(String(cString: strerror(errno)))")
        }
        return true
    }

    /// The SQLite application id of a wallet-orders store: 'WORD'.
    static let applicationID: Int32 = 0x574F_5244

    /// Looks at the file through its header and, for a rollback-journal database, a read-only
    /// connection; neither creates or changes anything.
    static func inspect(_ path: String) -> Identity {
        var status = stat()
        guard lstat(path, &status) == 0 else { return errno == ENOENT ? .missing : .foreign(String(cString: strerror(errno))) }
        if status.st_mode & S_IFMT == S_IFLNK, stat(path, &status) != 0 { return .foreign("it is a dangling symbolic link") }
        guard status.st_mode & S_IFMT == S_IFREG else { return .foreign("it is not a regular file") }
        guard status.st_size > 0 else { return .usable }
        guard let handle = FileHandle(forReadingAtPath: path) else { return .foreign("it cannot be read") }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            return .foreign("it is not an SQLite database")
        }
        let id = header[68..<72].reduce(Int32(0)) { $0 << 8 | Int32($1) }
        if id == applicationID { return .usable }
        if id != 0 { return .foreign("it belongs to another application (SQLite application id \(id))") }
        // Bytes 18 and 19 are 2 in WAL mode: a read-only connection could leave -wal/-shm files
        // and may not see what the WAL holds. Those files are judged once opened.
        if header[18] == 2 || header[19] == 2 { return .usable }
        // Bytes 40–43, the schema cookie, are 0 until a first table is made: nothing to protect.
        // This is also a store whose creation was killed while it switched to WAL, whose hot
        // journal a read-only connection cannot roll back ("attempt to write a readonly database").
        if header[40..<44].allSatisfy({ $0 == 0 }) { return .usable }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in try classify(db) }
        } catch {
            return .foreign("it cannot be read as an SQLite database (\(StoreDatabase.describe(error)))")
        }
    }

    /// ``Identity/usable`` for this tool's store or an empty database, else why it is foreign.
    static func classify(_ db: Database) throws -> Identity {
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if id == applicationID { return .usable }
        if id != 0 { return .foreign("it belongs to another application (SQLite application id \(id))") }
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        if tables.isEmpty { return .usable }
        if tables.contains("grdb_migrations") {
            let migrations = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            let own = migrations.allSatisfy { SQLiteSchema.modulePrefixes.contains(SQLiteSchema.modulePrefix(of: $0)) }
            if own && !migrations.isEmpty { return .usable }
            // Nothing but an empty migration table: a store whose creation was killed before its
            // first migration (versions that stamped the id after migrating). Nothing to lose.
            if tables == ["grdb_migrations"] && migrations.isEmpty { return .usable }
        }
        let shown = tables.prefix(5).map { MessageText.visible($0) }.joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
        return .foreign("it is another application's database (tables \(shown))")
    }
}
