import StorageContract
import Testing

/// Says, in every run, whether the contract suite ran on PostgreSQL too.
@Suite("Backends the contract suite runs on")
struct BackendCoverageTests {
    @Test(
        "PostgreSQL rows run when a test cluster is given",
        .disabled(if: TestPostgres.url == nil, Comment(rawValue: TestPostgres.skipNote)))
    func postgresRowsRun() {
        #expect(
            Array(BackendFactory.all.map(\.description).prefix(2)) == ["SQLite", "PostgreSQL"]
                && BackendFactory.all.count == 2 + TestPostgres.poolers.count)
    }

    @Test(
        "CI (ORDERS_REQUIRE_POSTGRES=1) fails when no cluster, or no PgBouncer in either mode, is given",
        .enabled(if: TestPostgres.isRequired))
    func postgresRequired() {
        #expect(TestPostgres.url != nil, "ORDERS_REQUIRE_POSTGRES=1 but ORDERS_TEST_POSTGRES is unset or not a URL")
        #expect(
            TestPostgres.poolers.map(\.mode) == ["session", "transaction"],
            "ORDERS_REQUIRE_POSTGRES=1 but ORDERS_TEST_PGBOUNCER_SESSION or …_TRANSACTION is unset or not a URL")
        #expect(TestPostgres.poolers.last?.url.prepared == false, "transaction pooling needs prepared=false")
    }
}
