import Testing
import WalletPostgres

@Suite("--database URLs")
struct PostgresDatabaseURLTests {
    @Test(
        "TCP and Unix-socket forms, as libpq reads them",
        arguments: [
            (
                "postgres://wallet@db.example/orders", PostgresDatabaseURL.Endpoint.tcp(host: "db.example", port: 5432), "orders",
                PostgresDatabaseURL.TLSMode.prefer
            ),
            (
                "postgresql://wallet@db.example:6543/orders?sslmode=verify-full", .tcp(host: "db.example", port: 6543), "orders",
                .verifyFull
            ),
            ("postgres://wallet@10.0.0.5/orders?sslmode=disable", .tcp(host: "10.0.0.5", port: 5432), "orders", .disable),
            ("postgres://wallet@db.example", .tcp(host: "db.example", port: 5432), "wallet", .prefer),
            (
                "postgres://wallet@/orders?host=/var/run/postgresql", .unixSocket(path: "/var/run/postgresql/.s.PGSQL.5432"),
                "orders", .disable
            ),
            ("postgres://wallet@/orders?host=/tmp/pg/&port=6000", .unixSocket(path: "/tmp/pg/.s.PGSQL.6000"), "orders", .disable),
            (
                "postgres://wallet@%2Fvar%2Frun%2Fpostgresql/orders", .unixSocket(path: "/var/run/postgresql/.s.PGSQL.5432"),
                "orders", .disable
            ),
        ])
    func forms(
        _ text: String, _ endpoint: PostgresDatabaseURL.Endpoint, _ database: String, _ tls: PostgresDatabaseURL.TLSMode
    ) throws {
        let url = try PostgresDatabaseURL(text)
        #expect(url.endpoint == endpoint)
        #expect(url.user == "wallet" && url.password == nil)
        #expect(url.database == database)
        #expect(url.tls == tls)
        // The redacted form names the same place and parses back to it.
        #expect(try PostgresDatabaseURL(url.redacted).endpoint == endpoint)
    }

    @Test("a password is decoded, kept out of the redacted form")
    func password() throws {
        let url = try PostgresDatabaseURL("postgres://wallet:p%40ss%2Fw0rd@db.example/orders")
        #expect(url.password == "p@ss/w0rd")
        #expect(url.redacted == "postgres://wallet@db.example:5432/orders")
    }

    @Test("prepared=false turns prepared statements off, survives redaction; true is the default")
    func prepared() throws {
        #expect(try PostgresDatabaseURL("postgres://wallet@db.example/orders").prepared)
        #expect(try PostgresDatabaseURL("postgres://wallet@db.example/orders?prepared=true").prepared)
        let tcp = try PostgresDatabaseURL("postgres://wallet@db.example/orders?prepared=false&sslmode=disable")
        #expect(!tcp.prepared)
        #expect(tcp.redacted == "postgres://wallet@db.example:5432/orders?prepared=false")
        #expect(try !PostgresDatabaseURL(tcp.redacted).prepared)
        let socket = try PostgresDatabaseURL("postgres://wallet@/orders?host=/run/pg&prepared=false")
        #expect(socket.redacted == "postgres://wallet@/orders?host=/run/pg&prepared=false")
        #expect(try !PostgresDatabaseURL(socket.redacted).prepared)
    }

    @Test(
        "what cannot be used is refused, saying what is wrong",
        arguments: [
            ("not a url at all", "not a URL"),
            ("mysql://wallet@db/orders", "the scheme must be postgres:// or postgresql://"),
            ("postgres://db.example/orders", "no user"),
            ("postgres://wallet@/orders", "no host"),
            ("postgres://wallet@db:0/orders", "the port must be 1…65535"),
            ("postgres://wallet@db/orders/extra", "the path must be one database name"),
            ("postgres://wallet@db/orders?sslmode=maybe", "sslmode must be one of disable, prefer, require, verify-full"),
            ("postgres://wallet@db/orders?application_name=x", "unknown parameter application_name"),
            ("postgres://wallet@db/orders?prepared=no", "prepared must be true or false"),
            ("postgres://wallet@db/orders?sslmode=require&sslmode=disable", "the parameter sslmode is given twice"),
            ("postgres://wallet@/orders?host=/run/pg&sslmode=verify-full", "cannot be used over a Unix socket"),
        ])
    func refused(_ text: String, _ reason: String) {
        #expect {
            try PostgresDatabaseURL(text)
        } throws: { error in
            guard case PostgresURLError.malformed(let message) = error else { return false }
            return message.contains(reason)
        }
    }
}
