import Foundation
import GRDB
import GRDBSQLite

/// `BEGIN IMMEDIATE` on the calling thread when no other process is writing: the common case
/// costs no hop onto GRDB's writer queue and back (Benchmarks/README.md, "Storage written once":
/// two saves at once were slower by that hop). When another process holds the write lock, SQLite
/// answers `SQLITE_BUSY` at once instead of waiting here, and the caller waits for it off this
/// thread — one of Swift concurrency's few.
enum ImmediateBegin {
    /// True when the transaction began on the pool's writer; false when the database is locked
    /// by another process.
    static func withoutWaiting(on pool: DatabasePool) throws -> Bool {
        let busyMode = pool.configuration.busyMode
        return try pool.writeWithoutTransaction { db in try withoutWaiting(db, busyMode: busyMode) }
    }

    private static func withoutWaiting(_ db: Database, busyMode: Database.BusyMode) throws -> Bool {
        guard let connection = db.sqliteConnection, case .timeout(let timeout) = busyMode else { return false }
        sqlite3_busy_timeout(connection, 0)
        defer { sqlite3_busy_timeout(connection, CInt(max(0, min(timeout * 1_000, Double(CInt.max))))) }
        do {
            try db.beginTransaction(.immediate)
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            return false
        }
    }
}
