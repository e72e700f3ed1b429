import WalletStorage

/// PostgreSQL's SQL: `$n` placeholders, `IS NOT DISTINCT FROM`, `TRUE`/`FALSE`, no planner hints,
/// NULL ordering always written out (PostgreSQL sorts NULLs last ascending, the opposite of
/// SQLite and of Swift), `LIMIT NULL` for no limit.
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
}

extension SQLRenderer {
    /// A renderer for PostgreSQL.
    static var postgres: SQLRenderer { SQLRenderer(dialect: PostgresDialect()) }
}
