import FinanceData
import Foundation
import GRDB
import WalletCore

/// Keeps SQLite's query-planner statistics (`sqlite_stat1`) for the transactions table current.
///
/// Without statistics SQLite takes every `accountID = ?` for a selective condition, so a query
/// across a client's accounts sorted by date sorts every matching row instead of walking the date
/// index: 2.2 s instead of 1.2 ms for `limit 100` over a million transactions. Sampled statistics
/// (`PRAGMA analysis_limit`) mislead it the same way, so the analysis is full: about 1.2 s per
/// million rows, run when the rows changed since the last one exceed a quarter of the rows then
/// (at least 1,000). Growth is geometric, so the cost per imported row stays about a microsecond.
enum PlannerStatistics {
    static let minimumChanges = 1_000

    /// Counts `changes` row changes; analyzes when they are many. Runs inside the import's write
    /// transaction, so a failed import changes neither the data nor the statistics.
    static func record(changes: Int, in db: Database) throws {
        guard changes > 0 else { return }
        try db.execute(sql: "UPDATE financeStatistics SET changesSince = changesSince + ? WHERE id = 1", arguments: [changes])
        guard let row = try Row.fetchOne(db, sql: "SELECT analyzedRows, changesSince FROM financeStatistics WHERE id = 1")
        else { return }
        let analyzedRows: Int = row[0]
        let changesSince: Int = row[1]
        if changesSince >= max(minimumChanges, analyzedRows / 4) { try analyze(db) }
    }

    /// Analyzes the transactions table now.
    static func analyze(_ db: Database) throws {
        try db.execute(sql: "ANALYZE transactions")
        let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM transactions") ?? 0
        try db.execute(sql: "UPDATE financeStatistics SET analyzedRows = ?, changesSince = 0 WHERE id = 1", arguments: [rows])
    }
}
