import FinanceData
import Testing
import WalletStorage

@testable import WalletSQLite

/// The same stored filter and ordering in two dialects: only what the dialect owns differs.
@Suite("SQL rendering through a dialect")
struct SQLRendererTests {
    /// PostgreSQL's spellings, as the coming backend will have them.
    struct PostgresLike: SQLDialect {
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

    static let filter = StoredFilter.all([
        .compare(.column("accountID", avoidingIndex: true), .equal, .text("A")),
        .any([.equals(.column("merchantNameKey"), .text("café")), .equals(.column("postedDate"), nil)]),
        .not(.compare(.coalesce(["postedDate", "transactionDate"]), .lessThan, .integer(42))),
    ])

    @Test("SQLite: ? placeholders, IS, +column, 1/0, no NULLS clause where SQLite's default matches, LIMIT -1")
    func sqlite() {
        var renderer = SQLRenderer(dialect: SQLiteDialect())
        #expect(renderer.condition(.all([.always, .always])) == "1")
        #expect(renderer.condition(.all([.always, .never])) == "0")
        let condition = renderer.condition(Self.filter)
        #expect(
            condition
                == "(+accountID = ?) AND ((merchantNameKey IS ?) OR (postedDate IS NULL)) AND (NOT (COALESCE(postedDate, transactionDate) < ?))"
        )
        #expect(
            renderer.ordering([
                StoredOrdering("postedDate"), StoredOrdering("postedDate", ascending: false),
                StoredOrdering("id", nullsFirst: false),
            ])
                == "postedDate ASC, postedDate DESC, id ASC NULLS LAST")
        #expect(renderer.limit(nil, offset: 5) == "LIMIT ? OFFSET ?")
        #expect(renderer.arguments == [.text("A"), .text("café"), .integer(42), .integer(-1), .integer(5)])
    }

    @Test("PostgreSQL-like: numbered placeholders, IS NOT DISTINCT FROM, explicit NULL ordering, LIMIT NULL")
    func postgres() {
        var renderer = SQLRenderer(dialect: PostgresLike())
        let condition = renderer.condition(Self.filter)
        #expect(
            condition
                == "(accountID = $1) AND ((merchantNameKey IS NOT DISTINCT FROM $2) OR (postedDate IS NULL)) AND (NOT (COALESCE(postedDate, transactionDate) < $3))"
        )
        #expect(renderer.ordering([StoredOrdering("postedDate", ascending: false)]) == "postedDate DESC NULLS LAST")
        #expect(renderer.limit(10, offset: nil) == "LIMIT $4 OFFSET $5")
        #expect(renderer.condition(.never) == "FALSE")
    }
}
