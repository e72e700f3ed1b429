import Foundation
import Logging
import PostgresNIO
import TestArchiveTable
import WalletPostgres
import WalletSQLite
import WalletStorage

/// A way to get a fresh, empty backend: what the contract suite runs against. Every backend of
/// the package is listed in ``all``; the suite runs each test once per row.
public struct BackendFactory: Sendable, CustomStringConvertible {
    public var description: String
    /// Whether the backend reaches its server through a connection pooler: randomized tests
    /// whose subject is what statements compute, not how they reach the server, run fewer cases.
    public var isThroughPooler = false
    public var make: @Sendable () async throws -> any StorageBackend
    /// Two backends over one new store, as two processes sharing it would open it.
    public var makeTwo: @Sendable () async throws -> (any StorageBackend, any StorageBackend)

    public init(
        _ description: String, make: @escaping @Sendable () async throws -> any StorageBackend,
        makeTwo: @escaping @Sendable () async throws -> (any StorageBackend, any StorageBackend)
    ) {
        self.description = description
        self.make = make
        self.makeTwo = makeTwo
    }

    /// The embedded backend, in a new file under the temporary directory.
    public static let sqlite = BackendFactory(
        "SQLite", make: { try SQLiteBackend(path: try newSQLitePath()) },
        makeTwo: {
            let path = try newSQLitePath()
            return (try SQLiteBackend(path: path), try SQLiteBackend(path: path))
        })

    /// The server backend, in a new database of the cluster ``TestPostgres`` names.
    public static let postgres = BackendFactory(
        "PostgreSQL",
        make: { try await PostgresBackend.open(try await contractURL(), options: .init(maximumConnections: 3)) },
        makeTwo: {
            let url = try await contractURL()
            return (
                try await PostgresBackend.open(url, options: .init(maximumConnections: 3)),
                try await PostgresBackend.open(url, options: .init(maximumConnections: 3))
            )
        })

    /// The server backend through a PgBouncer of ``TestPostgres`` in `mode` (`session` or
    /// `transaction`), in a new database of the cluster behind it.
    public static func pgbouncer(_ mode: String, _ proxy: PostgresDatabaseURL) -> BackendFactory {
        var factory = BackendFactory(
            "PostgreSQL through PgBouncer (\(mode) pooling)",
            make: {
                try await PostgresBackend.open(try await contractURL(through: proxy), options: .init(maximumConnections: 3))
            },
            makeTwo: {
                let url = try await contractURL(through: proxy)
                return (
                    try await PostgresBackend.open(url, options: .init(maximumConnections: 3)),
                    try await PostgresBackend.open(url, options: .init(maximumConnections: 3))
                )
            })
        factory.isThroughPooler = true
        return factory
    }

    /// A new database for a contract test, whose requests wait up to a minute for a connection:
    /// the suite asserts what the storage rules compute, and with the whole test run on two cores
    /// a rule that queues requests by design (the sign-in gate) saw waits past the default 10 s.
    /// The wait itself is asserted where it is the subject (`PostgresFailoverTests`).
    private static func contractURL(through proxy: PostgresDatabaseURL? = nil) async throws -> PostgresDatabaseURL {
        var url: PostgresDatabaseURL
        if let proxy {
            url = try await TestPostgres.newDatabase(through: proxy)
        } else {
            url = try await TestPostgres.newDatabase()
        }
        url.poolTimeout = .seconds(60)
        return url
    }

    private static func newSQLitePath() throws -> String {
        try TemporaryDirectory.make("contract-sqlite").appendingPathComponent("store.sqlite").path
    }

    /// SQLite always; PostgreSQL when a test cluster is given (``TestPostgres``), directly and
    /// through each PgBouncer it has.
    public static let all: [BackendFactory] =
        TestPostgres.url == nil
        ? [.sqlite]
        : [.sqlite, .postgres] + TestPostgres.poolers.map { pgbouncer($0.mode, $0.url) }
}

/// The PostgreSQL cluster tests use: `ORDERS_TEST_POSTGRES`, a `--database` URL, which
/// `Scripts/with-postgres.sh` sets to a throwaway cluster. Without it the PostgreSQL rows are
/// not run (``skipNote`` says so); with `ORDERS_REQUIRE_POSTGRES=1` (CI) its absence fails.
public enum TestPostgres {
    public static let url: PostgresDatabaseURL? = ProcessInfo.processInfo.environment["ORDERS_TEST_POSTGRES"].flatMap {
        try? PostgresDatabaseURL($0)
    }

    /// PgBouncers in front of the cluster (`ORDERS_TEST_PGBOUNCER_SESSION`, `…_TRANSACTION`, the
    /// latter with `prepared=false`), by pooling mode.
    public static let poolers: [(mode: String, url: PostgresDatabaseURL)] = [
        ("session", "ORDERS_TEST_PGBOUNCER_SESSION"), ("transaction", "ORDERS_TEST_PGBOUNCER_TRANSACTION"),
    ].compactMap { mode, variable in
        ProcessInfo.processInfo.environment[variable].flatMap { try? PostgresDatabaseURL($0) }.map { (mode, $0) }
    }

    /// The ways to the cluster tests of several processes take: `direct`, then the pooling mode
    /// of each PgBouncer (``newDatabase(route:)``).
    public static let routes: [String] = (url == nil ? [] : ["direct"]) + poolers.map(\.mode)

    /// A new, empty database reached by `route`, one of ``routes``.
    public static func newDatabase(route: String) async throws -> PostgresDatabaseURL {
        guard let proxy = poolers.first(where: { $0.mode == route })?.url else { return try await newDatabase() }
        return try await newDatabase(through: proxy)
    }

    /// A new, empty database in the cluster, reached through `proxy` (a PgBouncer that passes
    /// every database name through).
    public static func newDatabase(through proxy: PostgresDatabaseURL) async throws -> PostgresDatabaseURL {
        var through = proxy
        through.database = try await newDatabase().database
        return through
    }

    /// The same cluster over loopback TCP with TLS (`ORDERS_TEST_POSTGRES_TCP`, no `sslmode`).
    public static let tcpURL: String? = ProcessInfo.processInfo.environment["ORDERS_TEST_POSTGRES_TCP"]

    public static let isRequired = ProcessInfo.processInfo.environment["ORDERS_REQUIRE_POSTGRES"] == "1"

    public static let skipNote =
        "ORDERS_TEST_POSTGRES is not set: PostgreSQL rows skipped (Scripts/with-postgres.sh swift test runs them)"

    /// A new, empty database in the cluster, named after a random UUID.
    public static func newDatabase() async throws -> PostgresDatabaseURL {
        guard var url else { throw TestPostgresUnavailable() }
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        _ = try await withAdministrator(url) { client in
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name) ENCODING 'UTF8' TEMPLATE template0"))
        }
        url.database = name
        return url
    }

    /// Runs `body` with a client of the cluster's default database, closed afterwards.
    public static func withAdministrator<T: Sendable>(
        _ url: PostgresDatabaseURL, _ body: @Sendable (PostgresClient) async throws -> T
    ) async throws -> T {
        let client = PostgresClient(configuration: url.clientConfiguration, backgroundLogger: Logger(label: "test.postgres"))
        return try await withThrowingTaskGroup(of: T?.self) { group in
            // Immediately: the client is running before `body` leases a connection.
            group.addImmediateTask {
                await client.run()
                return nil
            }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }

    struct TestPostgresUnavailable: Error, CustomStringConvertible {
        var description: String { "ORDERS_TEST_POSTGRES is not set" }
    }
}
