import Foundation
import PostgresNIO
import StorageContract
import TestArchiveTable
import Testing
import WalletCore
import WalletPostgres

/// `sslmode` over TCP, against the test cluster's TLS listener: its certificate is signed by a
/// throwaway CA (`ORDERS_TEST_POSTGRES_CA`, a managed service's own CA), which the system does not
/// trust; the role `orders_cert` logs in only with a client certificate from that CA (issue 53,
/// item 5: TLS as libpq does it).
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
                == "\(url.redacted): TLS: the server's certificate is not signed by a trusted root (sslrootcert, else the system's roots) or does not name this host (verify-full)"
                && !reason.contains("SECRET")
        }
    }

    static func environment(_ name: String) throws -> String {
        try #require(ProcessInfo.processInfo.environment[name], "\(name) is set by Scripts/with-postgres.sh")
    }

    @Test("verify-full and verify-ca with sslrootcert pass; PGSSLROOTCERT when the URL names none; another CA is refused")
    func rootCertificate() async throws {
        let base = try #require(TestPostgres.tcpURL)
        let ca = try Self.environment("ORDERS_TEST_POSTGRES_CA")
        let other = try Self.environment("ORDERS_TEST_POSTGRES_OTHER_CA")
        for mode in ["verify-full", "verify-ca", "require"] {
            let url = try PostgresDatabaseURL(base + "?sslmode=\(mode)&sslrootcert=\(ca)", environment: [:])
            #expect(try await Self.encrypted(url), "\(mode)")
            #expect(url.redacted.contains("sslrootcert=\(ca)"))
        }
        let fromEnvironment = try PostgresDatabaseURL(base + "?sslmode=verify-full", environment: ["PGSSLROOTCERT": ca])
        #expect(fromEnvironment.rootCertificatePath == ca)
        #expect(try await Self.encrypted(fromEnvironment))
        for mode in ["verify-full", "verify-ca", "require"] {
            var url = try PostgresDatabaseURL(base + "?sslmode=\(mode)&sslrootcert=\(other)", environment: [:])
            url.database = try await TestPostgres.newDatabase().database
            await #expect {
                try await PostgresBackend.open(url)
            } throws: { error in
                ((error as? StorageError)?.reason ?? "").hasSuffix(
                    "TLS: the server's certificate is not signed by a trusted root (sslrootcert, else the system's roots) or does not name this host (verify-full)"
                )
            }
        }
        // A root file that cannot be read is said before any connection.
        let missing = try PostgresDatabaseURL(base + "?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem", environment: [:])
        await #expect {
            try await PostgresBackend.open(missing)
        } throws: { error in
            (error as? StorageError)?.reason == "\(missing.redacted): sslrootcert=/nonexistent/ca.pem cannot be read"
        }
    }

    @Test(
        "a client certificate logs in through pg_hba.conf's cert method; without it the role is refused; a key others read is refused"
    )
    func clientCertificate() async throws {
        let base = try #require(TestPostgres.tcpURL)
        let ca = try Self.environment("ORDERS_TEST_POSTGRES_CA")
        let certificate = try Self.environment("ORDERS_TEST_POSTGRES_CLIENT_CERT")
        let key = try Self.environment("ORDERS_TEST_POSTGRES_CLIENT_KEY")
        let database = try await TestPostgres.newDatabase().database
        let host = base.replacingOccurrences(of: "postgres://postgres@", with: "postgres://orders_cert@")
            .replacingOccurrences(of: "/postgres", with: "/\(database)")
        let url = try PostgresDatabaseURL(
            host + "?sslmode=verify-full&sslrootcert=\(ca)&sslcert=\(certificate)&sslkey=\(key)", environment: [:])
        #expect(url.user == "orders_cert" && url.redacted.contains("sslcert=\(certificate)&sslkey=\(key)"))
        let backend = try await PostgresBackend.open(url)
        #expect(try await backend.orders.countOrders(matching: .init()) == 0)
        try await backend.close()

        let without = try PostgresDatabaseURL(host + "?sslmode=verify-full&sslrootcert=\(ca)", environment: [:])
        await #expect {
            try await PostgresBackend.open(without)
        } throws: { error in
            ((error as? StorageError)?.reason ?? "").contains("connection requires a valid client certificate")
        }

        let folder = try TemporaryDirectory.make("pg-client-key")
        let open = folder.appendingPathComponent("client.key")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: key), to: open)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: open.path)
        let exposed = try PostgresDatabaseURL(
            host + "?sslmode=verify-full&sslrootcert=\(ca)&sslcert=\(certificate)&sslkey=\(open.path)", environment: [:])
        await #expect {
            try await PostgresBackend.open(exposed)
        } throws: { error in
            ((error as? StorageError)?.reason ?? "").contains("has group or world access (mode 644)")
        }
    }
}
