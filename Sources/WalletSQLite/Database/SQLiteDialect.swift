import WalletCore
import WalletStorage

/// SQLite's SQL: `?` placeholders, `IS` for NULL-safe equality, `1`/`0`, `+column` to keep the
/// planner off an index, NULLs first ascending (Swift's order, so no clause is written), `LIMIT -1`,
/// no row locks (a unit of work holds the whole database from `BEGIN IMMEDIATE`), and what
/// only SQLite needs: index hints, the planner's statistics, giving back free pages.
struct SQLiteDialect: SQLDialect {
    func placeholder(_ position: Int) -> String { "?" }
    func nullSafeEqual(_ lhs: String, _ rhs: String) -> String { "\(lhs) IS \(rhs)" }
    var trueLiteral: String { "1" }
    var falseLiteral: String { "0" }
    func avoidingIndex(_ column: String) -> String { "+\(column)" }

    func orderTerm(_ column: String, ascending: Bool, nullsFirst: Bool) -> String {
        let direction = ascending ? "ASC" : "DESC"
        // SQLite's default: NULLs first ascending, last descending.
        guard nullsFirst != ascending else { return "\(column) \(direction)" }
        return "\(column) \(direction) NULLS \(nullsFirst ? "FIRST" : "LAST")"
    }

    var unlimited: SQLValue { .integer(-1) }
    func byteLength(_ column: String) -> String { "length(\(column))" }
    /// SQLite's own `lower` folds ASCII only (the ICU extension, which folds more, is not loaded).
    func asciiLowercase(_ expression: String) -> String { "lower(\(expression))" }
    func containsSubstring(_ haystack: String, _ needle: String) -> String { "instr(\(haystack), \(needle)) > 0" }
    var lockingRead: String { "" }
    var sharingRead: String { "" }
    var lockingReadSkippingLocked: String { "" }

    /// With the archive, the primary key. Named, so the plan is the same whether the order exists
    /// (the timing of a served-order lookup must not tell).
    var servedArchiveIndex: String { "INDEXED BY sqlite_autoindex_orders_1" }

    /// Without the archive, SQLite reads the covering index and never the blob's overflow pages.
    /// It would first copy the generic subquery's row into a temporary table (3 µs more a lookup,
    /// measured); a range join on the index it is told to use reads that index in key order, so
    /// the statement's `LIMIT 1` takes the first entry at or after the key.
    var servedOrderAtOrAfterKey: String {
        "orders o INDEXED BY orders_served ON (o.orderTypeIdentifier, o.orderIdentifier) >= ($5, $6)"
    }

    /// The log's `sequence` is an `AUTOINCREMENT` key: one writer at a time, so numbers are
    /// taken in commit order.
    var appendFinanceChange: String {
        "INSERT INTO financeChanges (stream, entityID, kind, client, recordedAt, earliestDate) VALUES ($1, $2, $3, $4, $5, $6)"
    }

    var orderVersionWrites: any OrderVersionWrites { SQLiteOrderVersionWrites() }

    func didApplyFinanceChanges(rows: Int, on connection: any SQLConnection) async throws {
        try (connection as? SQLiteConnection)?.onDatabase { db in try PlannerStatistics.record(changes: rows, in: db) }
    }

    func didRemoveOrder(on connection: any SQLConnection) async throws {
        try (connection as? SQLiteConnection)?.onDatabase(FreePages.release)
    }
}

/// The versions of a save in SQLite: the unit of work holds the database from the read the
/// save decided on, so each write holds by itself and is a few plain statements (SQLite has no
/// data-modifying `WITH`).
struct SQLiteOrderVersionWrites: OrderVersionWrites {
    func insert(_ version: [SQLValue], trackingKeys: [String], on connection: any SQLConnection) async throws -> Bool {
        let sequence = try await nextChangeSequence(on: connection)
        try await connection.execute(Self.insertSQL, version + [.integer(sequence)])
        try await TrackingIndex.write(trackingKeys, of: version, sequence: sequence, replacing: false, on: connection)
        return true
    }

    func replace(
        _ version: [SQLValue], trackingKeys: [String], expectedDigest: String, on connection: any SQLConnection
    ) async throws -> Bool {
        // $1, $2: the key; $3: the new version's addedAt, the old one's replacedAt.
        let keyAndTime = Array(version[0...1]) + [version[12]]
        try await connection.execute(Self.historySQL, keyAndTime)
        let sequence = try await nextChangeSequence(on: connection)
        try await connection.execute(Self.updateSQL, version + [.integer(sequence)])
        // Every device registered for the order is owed a push, committed with the version; one
        // not yet sent to the device for the type carries this version too (coalesced).
        try await connection.execute(Self.pushesSQL, keyAndTime)
        try await TrackingIndex.write(trackingKeys, of: version, sequence: sequence, replacing: true, on: connection)
        return true
    }

    private static let insertSQL =
        "INSERT INTO orders (\(OrderColumns.version), changeSequence) VALUES (\(SQLPlaceholders.list(1...OrderColumns.count + 1)))"

    private static let historySQL = """
        INSERT INTO orderVersions (\(OrderColumns.version), replacedAt)
        SELECT \(OrderColumns.version), $3 FROM orders WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2
        """

    private static let updateSQL = """
        UPDATE orders SET (\(OrderColumns.version), changeSequence) = (\(SQLPlaceholders.list(1...OrderColumns.count + 1)))
        WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2
        """

    private static let pushesSQL = PushEnqueue.sql(type: "$1", identifier: "$2", time: "$3")

    /// The next value of the store-wide change sequence (see `WebServiceTables`).
    private func nextChangeSequence(on connection: any SQLConnection) async throws -> Int64 {
        try await connection.integer("UPDATE orderChangeSequence SET value = value + 1 WHERE id = 1 RETURNING value") ?? 0
    }
}
