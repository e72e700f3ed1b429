import FinanceData
import Testing
import WalletStorage

@testable import WalletSQLite

/// SQLite's rendering of the stored filters (PostgreSQL's: WalletPostgresTests).
@Suite("SQL rendering through a dialect")
struct SQLRendererTests {
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
}
