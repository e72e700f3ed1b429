import FinanceData
import Testing
import WalletStorage

@testable import WalletPostgres

/// PostgreSQL's rendering of the stored filters (SQLite's: WalletSQLiteTests).
@Suite("SQL rendering in PostgreSQL's dialect")
struct PostgresDialectTests {
    @Test("numbered placeholders, IS NOT DISTINCT FROM, NULL ordering always written out, LIMIT NULL")
    func rendering() {
        var renderer = SQLRenderer.postgres
        let filter = StoredFilter.all([
            .compare(.column("accountID", avoidingIndex: true), .equal, .text("A")),
            .any([.equals(.column("merchantNameKey"), .text("café")), .equals(.column("postedDate"), nil)]),
            .not(.compare(.coalesce(["postedDate", "transactionDate"]), .lessThan, .integer(42))),
        ])
        #expect(
            renderer.condition(filter)
                == "(accountID = $1) AND ((merchantNameKey IS NOT DISTINCT FROM $2) OR (postedDate IS NULL)) AND (NOT (COALESCE(postedDate, transactionDate) < $3))"
        )
        // PostgreSQL sorts NULLs last ascending, SQLite and Swift first: every term says which.
        #expect(
            renderer.ordering([
                StoredOrdering("postedDate"), StoredOrdering("postedDate", ascending: false),
                StoredOrdering("id", nullsFirst: false),
            ]) == "postedDate ASC NULLS FIRST, postedDate DESC NULLS LAST, id ASC NULLS LAST")
        #expect(renderer.limit(nil, offset: 5) == "LIMIT $4 OFFSET $5")
        #expect(renderer.arguments == [.text("A"), .text("café"), .integer(42), .null, .integer(5)])
        #expect(renderer.condition(.never) == "FALSE" && renderer.condition(.always) == "TRUE")
    }
}
