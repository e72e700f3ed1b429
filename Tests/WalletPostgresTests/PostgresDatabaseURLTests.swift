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
        #expect(try PostgresDatabaseURL(url.redacted) == url)
    }

    @Test(
        "the redacted form keeps every setting but the password: it parses back to the same URL",
        arguments: [
            "postgres://wallet:pw@10.0.0.5/orders?sslmode=disable",
            "postgres://wallet:pw@db.example/orders?sslmode=require&pool_size=5&pool_timeout=0.25",
            "postgres://wallet:pw@db.example:6543/orders?sslmode=verify-full&prepared=false",
            "postgres://wallet:pw@db1,db2:6000/orders?sslmode=disable&target_session_attrs=primary",
            "postgres://wallet:pw@/orders?host=/run/pg&sslmode=prefer",
            "postgres://wallet:pw@db.example/orders?sslmode=verify-ca&sslrootcert=/etc/orders/db-ca.pem&sslcert=/etc/orders/c.pem&sslkey=/etc/orders/c.key",
        ])
    func redactedKeepsSettings(_ text: String) throws {
        let url = try PostgresDatabaseURL(text)
        #expect(!url.redacted.contains("pw"))
        var withoutPassword = url
        withoutPassword.password = nil
        #expect(try PostgresDatabaseURL(url.redacted) == withoutPassword, "\(url.redacted)")
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
        #expect(tcp.redacted == "postgres://wallet@db.example:5432/orders?sslmode=disable&prepared=false")
        #expect(try !PostgresDatabaseURL(tcp.redacted).prepared)
        let socket = try PostgresDatabaseURL("postgres://wallet@/orders?host=/run/pg&prepared=false")
        #expect(socket.redacted == "postgres://wallet@/orders?host=/run/pg&prepared=false")
        #expect(try !PostgresDatabaseURL(socket.redacted).prepared)
    }

    @Test("several hosts, as libpq lists them, with target_session_attrs; the redacted form keeps them")
    func hosts() throws {
        let url = try PostgresDatabaseURL(
            "postgres://wallet:secret@db1.example,db2.example:6543,[::1]:7000/orders?target_session_attrs=read-write")
        #expect(
            url.endpoints == [
                .tcp(host: "db1.example", port: 5432), .tcp(host: "db2.example", port: 6543), .tcp(host: "::1", port: 7000),
            ])
        #expect(url.endpoint == .tcp(host: "db1.example", port: 5432))
        #expect(url.targetSessionAttributes == .readWrite)
        #expect(url.password == "secret" && url.user == "wallet" && url.database == "orders")
        #expect(
            url.redacted
                == "postgres://wallet@db1.example:5432,db2.example:6543,[::1]:7000/orders?target_session_attrs=read-write")
        #expect(
            try PostgresDatabaseURL(url.redacted)
                == {
                    var same = url; same.password = nil; return same
                }())
        let sockets = try PostgresDatabaseURL(
            "postgres://wallet@/orders?host=/run/a,/run/b&port=5433,5434&target_session_attrs=primary")
        #expect(sockets.endpoints == [.unixSocket(path: "/run/a/.s.PGSQL.5433"), .unixSocket(path: "/run/b/.s.PGSQL.5434")])
        #expect(sockets.targetSessionAttributes == .primary)
        #expect(try PostgresDatabaseURL(sockets.redacted).endpoints == sockets.endpoints)
        let onePort = try PostgresDatabaseURL("postgres://wallet@/orders?host=/run/a,/run/b&port=6000")
        #expect(onePort.endpoints == [.unixSocket(path: "/run/a/.s.PGSQL.6000"), .unixSocket(path: "/run/b/.s.PGSQL.6000")])
        #expect(try PostgresDatabaseURL("postgres://wallet@db/orders").targetSessionAttributes == .any)
    }

    @Test("pool_size and pool_timeout: bounds, defaults, kept by redaction")
    func pool() throws {
        let defaults = try PostgresDatabaseURL("postgres://wallet@db/orders")
        #expect(defaults.poolSize == nil && defaults.poolTimeout == .seconds(10))
        let url = try PostgresDatabaseURL("postgres://wallet@db/orders?pool_size=4&pool_timeout=0.25")
        #expect(url.poolSize == 4 && url.poolTimeout == .milliseconds(250))
        #expect(url.redacted == "postgres://wallet@db:5432/orders?pool_size=4&pool_timeout=0.250")
        #expect(try PostgresDatabaseURL(url.redacted) == url)
    }

    @Test("connect_timeout, libpq's name: absent by default (the backend's 10 s), bounds, kept by redaction")
    func connectTimeout() throws {
        #expect(try PostgresDatabaseURL("postgres://wallet@db/orders").connectTimeout == nil)
        let url = try PostgresDatabaseURL("postgres://wallet@db/orders?connect_timeout=2&pool_timeout=3")
        #expect(url.connectTimeout == .seconds(2) && url.poolTimeout == .seconds(3))
        #expect(url.redacted == "postgres://wallet@db:5432/orders?pool_timeout=3&connect_timeout=2")
        #expect(try PostgresDatabaseURL(url.redacted) == url)
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
            (
                "postgres://wallet@db/orders?sslmode=maybe",
                "sslmode must be one of disable, prefer, require, verify-ca, verify-full"
            ),
            ("postgres://wallet@db/orders?application_name=x", "unknown parameter application_name"),
            ("postgres://wallet@db/orders?prepared=no", "prepared must be true or false"),
            ("postgres://wallet@db/orders?sslmode=require&sslmode=disable", "the parameter sslmode is given twice"),
            ("postgres://wallet@/orders?host=/run/pg&sslmode=verify-full", "cannot be used over a Unix socket"),
            ("postgres://wallet@/orders?host=/run/pg&sslmode=verify-ca", "cannot be used over a Unix socket"),
            ("postgres://wallet@db/orders?sslrootcert=ca.pem", "sslrootcert must be an absolute path"),
            ("postgres://wallet@db/orders?sslcert=/c.pem", "give sslcert and sslkey together"),
            ("postgres://wallet@db1,,db2/orders", "the host list has an empty or malformed host"),
            ("postgres://wallet@db1,db2/orders?host=/run/pg", "not both"),
            ("postgres://wallet@/orders?host=/a,/b,/c&port=1,2", "give one port, or as many ports as hosts"),
            ("postgres://wallet@db1,db2:70000/orders", "the port must be 1…65535"),
            (
                "postgres://wallet@db/orders?target_session_attrs=standby",
                "target_session_attrs must be one of any, read-write, primary"
            ),
            ("postgres://wallet@/orders?host=/run/a,db2", "all TCP hosts or all socket directories"),
            ("postgres://wallet@db/orders?pool_size=0", "pool_size must be 1…1000"),
            ("postgres://wallet@db/orders?pool_timeout=never", "pool_timeout must be 0.01…600 seconds"),
            ("postgres://wallet@db/orders?connect_timeout=0", "connect_timeout must be 0.01…600 seconds"),
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
