import StorageContract
import Testing

/// Says, in every run, whether the contract suite ran on PostgreSQL too.
@Suite("Backends the contract suite runs on")
struct BackendCoverageTests {
    @Test(
        "PostgreSQL rows run when a test cluster is given",
        .disabled(if: TestPostgres.url == nil, Comment(rawValue: TestPostgres.skipNote)))
    func postgresRowsRun() {
        #expect(BackendFactory.all.map(\.description) == ["SQLite", "PostgreSQL"])
    }

    @Test("CI (ORDERS_REQUIRE_POSTGRES=1) fails when no cluster is given", .enabled(if: TestPostgres.isRequired))
    func postgresRequired() {
        #expect(TestPostgres.url != nil, "ORDERS_REQUIRE_POSTGRES=1 but ORDERS_TEST_POSTGRES is unset or not a URL")
    }
}
