import WalletCore
import WalletStorage

/// SQLite's SQL: `?` placeholders, `IS` for NULL-safe equality, `1`/`0`, `+column` to keep the
/// planner off an index, NULLs first ascending (Swift's order, so no clause is written), `LIMIT -1`.
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
}
