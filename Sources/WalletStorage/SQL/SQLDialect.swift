/// How one SQL dialect writes what differs between databases; ``SQLRenderer`` writes the rest.
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
}
