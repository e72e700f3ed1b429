import Foundation
import Logging
import PostgresNIO
import WalletCore
import WalletPrimitives
import WalletStorage

/// Every table of a PostgreSQL store, and the migrator that creates and upgrades them.
///
/// The tables are SQLite's (see WalletSQLite's schema) in the SQL subset the PostgreSQL-protocol
/// engines share: instants are `BIGINT` microseconds since 1970, archives and records `BYTEA`,
/// every text column `COLLATE "C"` (ids and keys sort by their bytes, as SQLite's BINARY and
/// Swift's order of NFC text do, whatever the database's locale), identity columns rather than
/// sequences one must name. Identifiers are unquoted, so PostgreSQL folds them to lower case on
/// both sides.
enum PostgresSchema {
    static let migrations: [PostgresMigration] = [
        initial,
        // SQLite's finance.v3: a merchant category across accounts by transactionDate.
        PostgresMigration(
            version: 2, name: "finance.v3",
            statements: [
                "CREATE INDEX transactions_on_merchantCategoryCode_transactionDate ON transactions (merchantCategoryCode, transactionDate)"
            ]),
        // SQLite's orders.v3: a device request's read from the index alone.
        PostgresMigration(
            version: 3, name: "orders.v3",
            statements: [
                "CREATE INDEX orders_served ON orders "
                    + "(orderTypeIdentifier, orderIdentifier, archiveSHA256, updatedAt, authenticationToken)"
            ]),
        consent,
        delivery,
        console,
        // SQLite's core.v4: the access version the planner's cache is checked against.
        PostgresMigration(
            version: 7, name: "core.v4",
            statements: [
                "CREATE TABLE accessVersion (id BIGINT PRIMARY KEY CHECK (id = 1), version BIGINT NOT NULL)",
                "INSERT INTO accessVersion (id, version) VALUES (1, 0)",
            ]),
        signIn,
        // SQLite's finance.v5: a deletion's earliest date, for the grant's date filter.
        PostgresMigration(
            version: 9, name: "finance.v5", statements: ["ALTER TABLE financeChanges ADD COLUMN earliestDate BIGINT"]),
        // SQLite's orders.v5: signing identities (the certificate and where the key is).
        PostgresMigration(
            version: 10, name: "orders.v5",
            statements: [
                """
                CREATE TABLE signingIdentities (
                    orderTypeIdentifier TEXT COLLATE "C" PRIMARY KEY,
                    teamIdentifier TEXT COLLATE "C" NOT NULL,
                    certificate TEXT COLLATE "C" NOT NULL,
                    intermediates TEXT COLLATE "C" NOT NULL,
                    certificateSHA256 TEXT COLLATE "C" NOT NULL,
                    keyLocation TEXT COLLATE "C" NOT NULL,
                    notAfter BIGINT NOT NULL,
                    addedAt BIGINT NOT NULL)
                """
            ]),
        // SQLite's orders.v6: the answers of requests with an Idempotency-Key.
        PostgresMigration(
            version: 11, name: "orders.v6",
            statements: [
                """
                CREATE TABLE requestReceipts (
                    caller TEXT COLLATE "C" NOT NULL,
                    idempotencyKey TEXT COLLATE "C" NOT NULL,
                    requestDigest TEXT COLLATE "C" NOT NULL,
                    status INTEGER NOT NULL,
                    answer BYTEA NOT NULL,
                    createdAt BIGINT NOT NULL,
                    PRIMARY KEY (caller, idempotencyKey))
                """
            ]),
        // SQLite's orders.v7: one waiting push per device and order type.
        PostgresMigration(version: 12, name: "orders.v7", statements: PushOutboxCoalescing.migration),
        // SQLite's orders.v8: a staged identity beside the active one, and the instances' reports.
        PostgresMigration(
            version: 13, name: "orders.v8",
            statements: [
                """
                CREATE TABLE stagedSigningIdentities (
                    orderTypeIdentifier TEXT COLLATE "C" PRIMARY KEY,
                    teamIdentifier TEXT COLLATE "C" NOT NULL,
                    certificate TEXT COLLATE "C" NOT NULL,
                    intermediates TEXT COLLATE "C" NOT NULL,
                    certificateSHA256 TEXT COLLATE "C" NOT NULL,
                    keyLocation TEXT COLLATE "C" NOT NULL,
                    notAfter BIGINT NOT NULL,
                    addedAt BIGINT NOT NULL)
                """,
                """
                CREATE TABLE signingIdentityReports (
                    instance TEXT COLLATE "C" NOT NULL,
                    orderTypeIdentifier TEXT COLLATE "C" NOT NULL,
                    revision TEXT COLLATE "C" NOT NULL,
                    loaded INTEGER NOT NULL,
                    reason TEXT COLLATE "C",
                    reportedAt BIGINT NOT NULL,
                    PRIMARY KEY (instance, orderTypeIdentifier, revision))
                """,
            ]),
        // SQLite's orders.v9: tracking endpoints, the tracking-number index, events, applications.
        PostgresMigration(
            version: 14, name: "orders.v9", statements: TrackingTables.migration(text: "TEXT COLLATE \"C\"", bytes: "BYTEA")),
    ]

    /// Migrates the database to ``migrations``: creates `walletSchema` if missing, then, holding a
    /// row lock on its row 0 (a lock that ends with the transaction: no session state, so it works
    /// through transaction-pooling proxies and on CockroachDB, unlike advisory locks or `LOCK
    /// TABLE`), applies the steps not yet recorded. Refuses, changing nothing, a database that
    /// records a step this version does not know (written by a newer version) or is not UTF-8.
    static func migrate(on connection: PostgresConnection, logger: Logger, location: String) async throws {
        let encoding = try await connection.value(String.self, "SHOW server_encoding", logger: logger)
        guard encoding == "UTF8" else {
            throw StorageError(
                reason:
                    "\(location): the database's encoding is \(encoding ?? "unknown"), not UTF8 (create it with ENCODING 'UTF8')"
            )
        }
        try await createSchemaTable(on: connection, logger: logger)
        try await PostgresExecutor.run(
            "BEGIN",
            { connection, logger in
                try await connection.run(
                    "SELECT version FROM walletSchema WHERE version = 0 FOR UPDATE", logger: logger)
                var applied: [Int: String] = [:]
                for row in try await connection.rows("SELECT version, name FROM walletSchema WHERE version > 0", logger: logger) {
                    applied[Int(try row.integer(0))] = try row.text(1)
                }
                let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0.name) })
                if let (version, name) = applied.sorted(by: { $0.key < $1.key }).first(where: { known[$0.key] != $0.value }) {
                    throw StorageError(
                        reason:
                            "\(location) was written by a newer version of this tool (schema step \(version) \(MessageText.quote(name)) is unknown here); upgrade the tool"
                    )
                }
                for migration in migrations where applied[migration.version] == nil {
                    for statement in migration.statements { try await connection.run(statement, logger: logger) }
                    try await connection.run(
                        "INSERT INTO walletSchema (version, name, appliedAt) VALUES ($1, $2, $3)",
                        [.integer(Int64(migration.version)), .text(migration.name), .integer(Microseconds.since1970(Date()))],
                        logger: logger)
                }
            }, on: connection, logger: logger)
    }

    /// What the loser of two concurrent creations hears: a unique violation on the catalog
    /// (23505), or the table's row type already there (42710, duplicate_object — the same race,
    /// met on `pg_type` first), or the table itself (42P07).
    private static let createdConcurrently: Set<String> = ["23505", "42710", "42P07"]

    /// `CREATE TABLE IF NOT EXISTS` is not safe against itself: two processes creating the table
    /// at once can both pass the check, and the loser fails on the catalog (``createdConcurrently``).
    /// It then finds the table there, so one more try settles it.
    private static func createSchemaTable(on connection: PostgresConnection, logger: Logger) async throws {
        for attempt in 1...2 {
            do {
                try await PostgresExecutor.run(
                    "BEGIN",
                    { connection, logger in
                        try await connection.run(
                            """
                            CREATE TABLE IF NOT EXISTS walletSchema (
                                version INTEGER PRIMARY KEY, name TEXT COLLATE "C" NOT NULL, appliedAt BIGINT NOT NULL)
                            """, logger: logger)
                        try await connection.run(
                            "INSERT INTO walletSchema (version, name, appliedAt) VALUES (0, 'walletSchema', 0) ON CONFLICT DO NOTHING",
                            logger: logger)
                    }, on: connection, logger: logger)
                return
            } catch  where attempt == 1 && Self.createdConcurrently.contains(PostgresFailure.sqlState(of: error) ?? "") {
                continue
            }
        }
    }
}

extension PostgresSchema {
    /// For readers: the database must hold this tool's tables, fully migrated; nothing is created.
    static func check(on connection: PostgresConnection, logger: Logger, location: String) async throws {
        let versions = try await PostgresExecutor.run(
            "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
            { connection, logger in
                guard
                    try await connection.value(
                        Bool.self, "SELECT to_regclass('walletschema') IS NOT NULL", logger: logger) == true
                else { return [Int64]() }
                return try await connection.rows("SELECT version FROM walletSchema WHERE version > 0", logger: logger).map {
                    try $0.integer(0)
                }
            }, on: connection, logger: logger)
        guard !versions.isEmpty else {
            throw StorageError(reason: "\(location) holds no wallet store (a writing command creates one)")
        }
        let known = Set(migrations.map { Int64($0.version) })
        guard Set(versions) == known else {
            throw StorageError(
                reason: Set(versions).isSubset(of: known)
                    ? "\(location) needs migrating (a writing command or `orders serve` migrates it)"
                    : "\(location) was written by a newer version of this tool; upgrade the tool")
        }
    }
}
