import WalletStorage

/// PostgreSQL's SQL: `$n` placeholders, `IS NOT DISTINCT FROM`, `TRUE`/`FALSE`, no planner hints,
/// NULL ordering always written out (PostgreSQL sorts NULLs last ascending, the opposite of
/// SQLite and of Swift), `LIMIT NULL` for no limit, and row locks: several processes write at
/// once, so what a unit of work decides on, it locks.
struct PostgresDialect: SQLDialect {
    func placeholder(_ position: Int) -> String { "$\(position)" }
    func nullSafeEqual(_ lhs: String, _ rhs: String) -> String { "\(lhs) IS NOT DISTINCT FROM \(rhs)" }
    var trueLiteral: String { "TRUE" }
    var falseLiteral: String { "FALSE" }
    func avoidingIndex(_ column: String) -> String { column }

    func orderTerm(_ column: String, ascending: Bool, nullsFirst: Bool) -> String {
        "\(column) \(ascending ? "ASC" : "DESC") NULLS \(nullsFirst ? "FIRST" : "LAST")"
    }

    var unlimited: SQLValue { .null }
    func byteLength(_ column: String) -> String { "octet_length(\(column))" }
    /// Not `lower`, which folds by the database's locale (and so differently from SQLite).
    func asciiLowercase(_ expression: String) -> String {
        "translate(\(expression), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"
    }
    func containsSubstring(_ haystack: String, _ needle: String) -> String { "strpos(\(haystack), \(needle)) > 0" }
    var lockingRead: String { "FOR UPDATE" }
    var sharingRead: String { "FOR SHARE" }
    var lockingReadSkippingLocked: String { "FOR UPDATE SKIP LOCKED" }

    /// Each record's `sequence` is taken from the one-row `financeChangeSequence` in the statement
    /// that inserts it; the row lock that takes lasts until the transaction ends, so a second
    /// writer's records get their numbers only after the first writer's are committed, and a
    /// reader that sees number n sees every number below it (a sequence would not: numbers are
    /// taken at insert, committed in any order).
    var appendFinanceChange: String {
        """
        WITH next AS (UPDATE financeChangeSequence SET value = value + 1 WHERE id = 1 RETURNING value)
        INSERT INTO financeChanges (sequence, stream, entityID, kind, client, recordedAt, earliestDate)
        SELECT value, $1, $2, $3, $4, $5, $6 FROM next
        """
    }

    var orderVersionWrites: any OrderVersionWrites { PostgresOrderVersionWrites() }
}

extension SQLRenderer {
    /// A renderer for PostgreSQL.
    static var postgres: SQLRenderer { SQLRenderer(dialect: PostgresDialect()) }
}

/// The versions of a save in PostgreSQL, where several processes save versions of one order at
/// once: each write is **one statement** that holds only if the stored version is still the one
/// the save read. A new order is inserted `ON CONFLICT DO NOTHING`; a replacement locks the row
/// `FOR UPDATE` where its digest is still the one read (PostgreSQL re-checks that against a
/// concurrent commit), and moves it to the history, writes the pushes owed, takes the change
/// number and updates the row, all in that statement. Outside a unit of work each statement is a
/// transaction of its own, its `BEGIN`, itself and its `COMMIT` sent at once
/// (``PostgresConnection/committedRows(_:_:logger:)``): the save is acknowledged on the reply to
/// `COMMIT`, and the change number's row lock waits for nothing of this process's.
struct PostgresOrderVersionWrites: OrderVersionWrites {
    func insert(_ version: [SQLValue], trackingKeys: [String], on connection: any SQLConnection) async throws -> Bool {
        // The number a losing insert took is left unused: tags may skip numbers, never changes.
        guard !trackingKeys.isEmpty else {
            return try await !connection.fetchCommitted(Self.insertSQL, version) { _ in () }.isEmpty
        }
        return try await !connection.fetchCommitted(
            Self.insertIndexedSQL, version + [TrackingIndex.joined(trackingKeys)]
        ) { _ in () }.isEmpty
    }

    func replace(
        _ version: [SQLValue], trackingKeys: [String], expectedDigest: String, on connection: any SQLConnection
    ) async throws -> Bool {
        try await !connection.fetchCommitted(
            Self.replaceSQL, version + [.text(expectedDigest), TrackingIndex.joined(trackingKeys)]
        ) { _ in () }.isEmpty
    }

    private static let insertSQL = """
        WITH next AS (UPDATE orderChangeSequence SET value = value + 1 WHERE id = 1 RETURNING value)
        INSERT INTO orders (\(OrderColumns.version), changeSequence)
        SELECT \(SQLPlaceholders.list(1...OrderColumns.count)), value FROM next
        ON CONFLICT (orderTypeIdentifier, orderIdentifier) DO NOTHING RETURNING 1
        """

    /// ``insertSQL`` that also indexes the keys in $16 (``TrackingIndex``) when the order was inserted.
    private static let insertIndexedSQL = """
        WITH next AS (UPDATE orderChangeSequence SET value = value + 1 WHERE id = 1 RETURNING value),
        inserted AS (
            INSERT INTO orders (\(OrderColumns.version), changeSequence)
            SELECT \(SQLPlaceholders.list(1...OrderColumns.count)), value FROM next
            ON CONFLICT (orderTypeIdentifier, orderIdentifier) DO NOTHING RETURNING changeSequence),
        keys AS (
            INSERT INTO trackingNumbers (trackingKey, orderTypeIdentifier, orderIdentifier, changeSequence)
            SELECT k, $1, $2, inserted.changeSequence
            FROM inserted, unnest(string_to_array($\(OrderColumns.count + 1), ' ')) AS k)
        SELECT 1 FROM inserted
        """

    /// $1…$15: the new version, $13 its `addedAt` (the old one's `replacedAt`), $16 the digest
    /// the decision was made against, $17 the new version's tracking keys: the index's entries
    /// the new version no longer names go, its new ones come, only when a version was replaced.
    private static let replaceSQL = """
        WITH old AS (
            SELECT id, \(OrderColumns.version) FROM orders
            WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2 AND archiveSHA256 = $\(OrderColumns.count + 1) FOR UPDATE),
        history AS (
            INSERT INTO orderVersions (\(OrderColumns.version), replacedAt) SELECT \(OrderColumns.version), $13 FROM old),
        pushes AS (\(PushEnqueue.sql(type: "$1", identifier: "$2", time: "$13", joining: "old"))),
        next AS (
            UPDATE orderChangeSequence SET value = value + 1 WHERE id = 1 AND EXISTS (SELECT 1 FROM old) RETURNING value),
        stale AS (
            DELETE FROM trackingNumbers t USING old
            WHERE t.orderTypeIdentifier = $1 AND t.orderIdentifier = $2
            AND NOT (t.trackingKey = ANY (string_to_array($\(OrderColumns.count + 2), ' ')))),
        keys AS (
            INSERT INTO trackingNumbers (trackingKey, orderTypeIdentifier, orderIdentifier, changeSequence)
            SELECT k, $1, $2, next.value FROM next, unnest(string_to_array($\(OrderColumns.count + 2), ' ')) AS k
            ON CONFLICT (trackingKey, orderTypeIdentifier, orderIdentifier) DO UPDATE SET changeSequence = excluded.changeSequence)
        UPDATE orders SET (\(OrderColumns.version), changeSequence) = (\(SQLPlaceholders.list(1...OrderColumns.count)), next.value)
        FROM old, next WHERE orders.id = old.id
        RETURNING 1
        """
}
