import PostgresNIO
import StorageContract
import Testing
import WalletCore
import WalletPostgres

/// `sslmode` over TCP, against the test cluster's TLS listener (a self-signed certificate).
@Suite("TLS as sslmode asks", .enabled(if: TestPostgres.tcpURL != nil, "ORDERS_TEST_POSTGRES_TCP is not set"))
struct PostgresTLSTests {
    /// Whether the connection `url` configures is encrypted, as the server sees it.
    static func encrypted(_ url: PostgresDatabaseURL) async throws -> Bool {
        try await TestPostgres.withAdministrator(url) { client in
            var ssl = false
            for try await row in try await client.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()") {
                ssl = try row.decode(Bool.self)
            }
            return ssl
        }
    }

    @Test("require and prefer encrypt, disable does not; the backend opens over TLS")
    func encryption() async throws {
        let base = try #require(TestPostgres.tcpURL)
        #expect(try await Self.encrypted(PostgresDatabaseURL(base + "?sslmode=require")))
        #expect(try await Self.encrypted(PostgresDatabaseURL(base)))  // prefer, the default over TCP
        #expect(try await !Self.encrypted(PostgresDatabaseURL(base + "?sslmode=disable")))
        var url = try PostgresDatabaseURL(base + "?sslmode=require")
        url.database = try await TestPostgres.newDatabase().database
        let backend = try await PostgresBackend.open(url)
        #expect(try await backend.orders.countOrders(matching: .init()) == 0)
        try await backend.close()
    }

    @Test("verify-full refuses a certificate no trusted root signed, in one line without the password")
    func verifyFull() async throws {
        let base = try #require(TestPostgres.tcpURL)
        var url = try PostgresDatabaseURL(base + "?sslmode=verify-full")
        url.password = "SECRET"
        await #expect {
            try await PostgresBackend.open(url)
        } throws: { error in
            let reason = (error as? StorageError)?.reason ?? ""
            return reason
                == "\(url.redacted): TLS: the server's certificate is not signed by a trusted root or does not name this host (sslmode=verify-full)"
                && !reason.contains("SECRET")
        }
    }
}
