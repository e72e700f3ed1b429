/// How one backend writes what differs between databases; ``SQLRenderer`` and the repositories of
/// this module write the rest once. Each requirement that is more than spelling says why the
/// backends differ.
package protocol SQLDialect: Sendable {
    /// The placeholder for the argument at `position` (1-based): `?` in SQLite, `$1` in PostgreSQL.
    func placeholder(_ position: Int) -> String
    /// Equality that holds for two NULLs and is never NULL: `a IS b`, `a IS NOT DISTINCT FROM b`.
    func nullSafeEqual(_ lhs: String, _ rhs: String) -> String
    /// Boolean literals usable as a condition.
    var trueLiteral: String { get }
    var falseLiteral: String { get }
    /// A column the planner should not choose an index for, where the dialect can say so
    /// (SQLite: `+column`); the column itself elsewhere.
    func avoidingIndex(_ column: String) -> String
    /// One `ORDER BY` term with NULLs where asked, written out only where the dialect's default
    /// differs (an explicit clause can cost an index in some planners).
    func orderTerm(_ column: String, ascending: Bool, nullsFirst: Bool) -> String
    /// The limit argument meaning "no limit": SQLite `-1`, PostgreSQL `NULL`.
    var unlimited: SQLValue { get }
    /// The length in bytes of a blob column: `length(x)`, `octet_length(x)`.
    func byteLength(_ column: String) -> String
    /// `expression` with ASCII letters lowered and nothing else changed (FinanceData's
    /// `TextSearch` rule): SQLite's built-in `lower` (ASCII only without the ICU extension);
    /// PostgreSQL's `translate`, whose `lower` would follow the database's locale.
    func asciiLowercase(_ expression: String) -> String
    /// Whether the text `haystack` contains `needle`: `instr(…) > 0`, `strpos(…) > 0`.
    func containsSubstring(_ haystack: String, _ needle: String) -> String

    /// What a `SELECT` appends to lock the rows it read until the unit of work ends: PostgreSQL's
    /// `FOR UPDATE`; nothing in SQLite, whose unit of work holds the whole database from `BEGIN
    /// IMMEDIATE`.
    var lockingRead: String { get }
    /// ``lockingRead`` that lets other units of work read the rows too but not change them:
    /// `FOR SHARE`; nothing in SQLite.
    var sharingRead: String { get }
    /// ``lockingRead`` that passes over rows another unit of work holds (several drainers of one
    /// outbox each take other rows): `FOR UPDATE SKIP LOCKED`; nothing in SQLite.
    var lockingReadSkippingLocked: String { get }

    /// The index a served-order lookup with the archive reads, as a hint after the table's name,
    /// where the planner needs telling (see ``ServedOrderLookup``): SQLite's `INDEXED BY …`.
    var servedArchiveIndex: String { get }
    /// The join, as `o`, of the first order stored at or after the key `($5, $6)` in key order —
    /// the order itself, or the one beside it (``ServedOrderLookup``) — for a statement that ends
    /// with `LIMIT 1`.
    var servedOrderAtOrAfterKey: String { get }

    /// Appends one record to the finance change log: `$1` stream, `$2` entity, `$3` kind,
    /// `$4` client (NULL for everyone), `$5` recordedAt. The numbering differs (see each dialect).
    var appendFinanceChange: String { get }

    /// Order versions: a new order's first version, and a replacement of the stored one, each
    /// with the next change number — the statements whose atomicity each database gets its own
    /// way (see each dialect).
    var orderVersionWrites: any OrderVersionWrites { get }

    /// Housekeeping after a finance import changed `rows` rows, inside its unit of work.
    func didApplyFinanceChanges(rows: Int, on connection: any SQLConnection) async throws
    /// Housekeeping after an order and its rows were deleted, inside that unit of work.
    func didRemoveOrder(on connection: any SQLConnection) async throws
}

extension SQLDialect {
    /// Whether any of `expressions` contains the needle (``FinanceData/TextSearch``'s rule: its ASCII
    /// letters already lowered, the haystack's lowered here, every other byte exact; NULL reads as
    /// empty text, so the condition is never NULL). `needle` binds it once per expression, as
    /// SQLite numbers a statement's parameters. Transactions' and orders' text searches are this
    /// condition.
    package func containsText(_ expressions: [String], needle: () -> String) -> String {
        let parts = expressions.map { containsSubstring(asciiLowercase("COALESCE(\($0), '')"), needle()) }
        return parts.isEmpty ? falseLiteral : "(" + parts.joined(separator: " OR ") + ")"
    }

    /// Whether a unit of work must lock what it decides on row by row (PostgreSQL), rather than
    /// holding the whole database already (SQLite).
    package var locksRows: Bool { !lockingRead.isEmpty }

    package func didApplyFinanceChanges(rows: Int, on connection: any SQLConnection) async throws {}
    package func didRemoveOrder(on connection: any SQLConnection) async throws {}
    package var servedArchiveIndex: String { "" }
    package var servedOrderAtOrAfterKey: String {
        """
        (SELECT orderTypeIdentifier, orderIdentifier, archiveSHA256, updatedAt, authenticationToken FROM orders
            WHERE (orderTypeIdentifier, orderIdentifier) >= ($5, $6) ORDER BY orderTypeIdentifier, orderIdentifier LIMIT 1) o
            ON 1 = 1
        """
    }
}
