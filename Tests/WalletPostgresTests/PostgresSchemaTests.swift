import Foundation
import PostgresNIO
import StorageContract
import Testing
import WalletCore
import WalletPostgres

/// Opening a PostgreSQL store: migrations, readers, refusals.
@Suite("PostgreSQL migrations and opening", .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipNote)))
struct PostgresSchemaTests {
    /// The rows of one statement's first column, as text.
    static func column(_ sql: String, in url: PostgresDatabaseURL) async throws -> [String] {
        try await TestPostgres.withAdministrator(url) { client in
            var values: [String] = []
            for try await row in try await client.query(PostgresQuery(unsafeSQL: sql)) {
                values.append(try row.decode(String.self))
            }
            return values
        }
    }

    static func tables(in url: PostgresDatabaseURL) async throws -> [String] {
        try await column("SELECT tablename::text FROM pg_tables WHERE schemaname = 'public' ORDER BY 1", in: url)
    }

    @Test("a reader on an empty database creates nothing; a writer migrates; opening again changes nothing")
    func readerThenWriter() async throws {
        let url = try await TestPostgres.newDatabase()
        await #expect {
            try await PostgresBackend.open(url, options: .init(createIfMissing: false))
        } throws: { error in
            (error as? StorageError)?.reason == "\(url.redacted) holds no wallet store (a writing command creates one)"
        }
        #expect(try await Self.tables(in: url).isEmpty)
        try await PostgresBackend.open(url).close()
        let tables = try await Self.tables(in: url)
        #expect(tables.contains("orders") && tables.contains("walletschema") && tables.contains("financechanges"))
        let generation = try await Self.column("SELECT value FROM storeInfo", in: url)
        try await PostgresBackend.open(url).close()
        try await PostgresBackend.open(url, options: .init(createIfMissing: false)).close()
        #expect(try await Self.column("SELECT value FROM storeInfo", in: url) == generation)
        #expect(
            try await Self.column("SELECT version::text || ' ' || name FROM walletSchema ORDER BY version", in: url) == [
                "0 walletSchema", "1 initial", "2 finance.v3", "3 orders.v3", "4 core.v3", "5 finance.v4",
                "6 orders.v4", "7 core.v4", "8 core.v5", "9 finance.v5", "10 orders.v5", "11 orders.v6",
                "12 orders.v7", "13 orders.v8", "14 orders.v9",
            ])
    }

    @Test("eight backends opening one new database at once migrate it once")
    func concurrentMigration() async throws {
        let url = try await TestPostgres.newDatabase()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { try await PostgresBackend.open(url, options: .init(maximumConnections: 1)).close() }
            }
            try await group.waitForAll()
        }
        #expect(
            // `AS step`: ORDER BY `version` would name the text output column and sort "10" before "2".
            try await Self.column("SELECT version::text AS step FROM walletSchema ORDER BY version", in: url) == [
                "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14",
            ])
        #expect(try await Self.column("SELECT count(*)::text FROM storeInfo", in: url) == ["1"])
    }

    @Test("a database written by a newer version is refused, readers and writers alike, and left as it is")
    func newerSchema() async throws {
        let url = try await TestPostgres.newDatabase()
        try await PostgresBackend.open(url).close()
        _ = try await Self.column(
            "INSERT INTO walletSchema (version, name, appliedAt) VALUES (99, 'fromTheFuture', 0) RETURNING name", in: url)
        for createIfMissing in [true, false] {
            await #expect {
                try await PostgresBackend.open(url, options: .init(createIfMissing: createIfMissing))
            } throws: { error in
                (error as? StorageError)?.reason.contains("was written by a newer version of this tool") == true
            }
        }
        #expect(
            try await Self.column("SELECT name FROM walletSchema ORDER BY version", in: url) == [
                "walletSchema", "initial", "finance.v3", "orders.v3", "core.v3", "finance.v4", "orders.v4", "core.v4",
                "core.v5", "finance.v5", "orders.v5", "orders.v6", "orders.v7", "orders.v8", "orders.v9", "fromTheFuture",
            ])
    }

    @Test("a database that is not UTF-8 is refused before anything is created")
    func encoding() async throws {
        var url = try #require(TestPostgres.url)
        let name = "t_ascii_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        _ = try await TestPostgres.withAdministrator(url) { client in
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name) ENCODING 'SQL_ASCII' TEMPLATE template0"))
        }
        url.database = name
        await #expect {
            try await PostgresBackend.open(url)
        } throws: { error in
            (error as? StorageError)?.reason.contains("the database's encoding is SQL_ASCII, not UTF8") == true
        }
        #expect(try await Self.tables(in: url).isEmpty)
    }

    @Test("no such database or role: the server's reason, naming the URL without its password")
    func refusedLogin() async throws {
        var url = try #require(TestPostgres.url)
        url.database = "no_such_database"
        url.password = "SECRET"
        await #expect {
            try await PostgresBackend.open(url)
        } throws: { error in
            let reason = (error as? StorageError)?.reason ?? ""
            return reason.hasPrefix("\(url.redacted): database \"no_such_database\" does not exist [SQLSTATE 3D000]")
                && !reason.contains("SECRET")
        }
    }
}
