import Foundation
import PostgresNIO
import StorageContract
import TestArchiveTable
import Testing
import WalletPostgres

/// `--database URL` / `ORDERS_DATABASE`: every command on a PostgreSQL database instead of the
/// SQLite store, through the built binary.
@Suite("orders --database (PostgreSQL)")
struct DatabaseOptionTests {
    @Test("--store and --database together are a usage error (exit 2), nothing opened")
    func bothLocations() async throws {
        let workspace = try StoreWorkspace()
        let result = try await OrdersProcess.run(
            ["check", "--type", "t", "--id", "i", "--store", workspace.store, "--database", "postgres://u@/d?host=/nowhere"],
            in: workspace.folder)
        #expect(result.status == 2)
        #expect(result.stderr == "orders: give --store or --database, not both\n")
        #expect(!FileManager.default.fileExists(atPath: workspace.store))
    }

    @Test(
        "a malformed URL is exit 2, says what is wrong, never shows the password",
        arguments: [
            ("postgres://wallet:SECRET@db.example:99999/wallet", "the port must be 1…65535"),
            ("mysql://wallet:SECRET@db.example/wallet", "the scheme must be postgres:// or postgresql://"),
            ("postgres://wallet:SECRET@db.example/wallet?sslmode=sometimes", "sslmode must be one of"),
            ("postgres://wallet:SECRET@/wallet?host=/run/pg&sslmode=require", "cannot be used over a Unix socket"),
        ])
    func malformedURL(_ url: String, _ reason: String) async throws {
        let folder = try TemporaryDirectory.make("orders-database")
        for (arguments, environment) in [
            (["list", "--database", url], [:]), (["list"], ["ORDERS_DATABASE": url]),
        ] {
            let result = try await OrdersProcess.run(arguments, environment: environment, in: folder)
            #expect(result.status == 2)
            #expect(result.stderr.contains(reason), "\(result.stderr)")
            #expect(result.stderr.hasPrefix("orders: \(environment.isEmpty ? "--database" : "ORDERS_DATABASE") is not"))
            #expect(!result.stderr.contains("SECRET") && result.stdout.isEmpty)
        }
    }

    @Test("a server that is not there is one line naming the database (no password), exit 2")
    func unreachable() async throws {
        let folder = try TemporaryDirectory.make("orders-database")
        let result = try await OrdersProcess.run(
            ["list", "--database", "postgres://wallet:SECRET@/wallet?host=\(folder.path)"], in: folder, timeout: 60)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix("orders: store.unavailable: postgres://wallet@/wallet?host=\(folder.path): "),
            "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!result.stderr.contains("SECRET"))
    }

    @Test(
        "add, check, list and doctor on a PostgreSQL database; a reader never creates tables",
        .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipNote)))
    func commandsOnPostgres() async throws {
        let url = try await TestPostgres.newDatabase()
        let workspace = try StoreWorkspace()
        let database = ["--database", url.redacted]
        let identity = ["--type", TestOrderArchive.orderTypeIdentifier, "--id", "ORDER-1"]

        // A reader on an empty database: exit 2, and still no table.
        let reader = try await OrdersProcess.run(["check"] + identity + database, in: workspace.folder)
        #expect(reader.status == 2)
        #expect(reader.stderr.contains("holds no wallet store"), "\(reader.stderr)")
        #expect(try await Self.tableCount(url) == 0)

        let archive = try workspace.archive("a.order")
        let added = try await OrdersProcess.run(
            ["add", archive, "--trust-root", TestArchiveTable.testRoot.path] + database, in: workspace.folder)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.lines == ["added          \(archive)"])

        // The same through ORDERS_DATABASE.
        let check = try await OrdersProcess.run(
            ["check"] + identity, environment: ["ORDERS_DATABASE": url.redacted], in: workspace.folder)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.hasPrefix("exists"))
        let list = try await OrdersProcess.run(["list"] + database, in: workspace.folder)
        #expect(list.status == 0)
        #expect(list.stdout.contains("ORDER-1"))
        let doctor = try await OrdersProcess.run(["doctor"] + database, in: workspace.folder)
        #expect(doctor.lines.first == "ok    store: \(url.redacted): the server answers; the schema is current")
        #expect(doctor.status == 0)
        #expect(try await Self.tableCount(url) > 10)
    }

    /// Tables in the database's public schema.
    static func tableCount(_ url: PostgresDatabaseURL) async throws -> Int {
        try await TestPostgres.withAdministrator(url) { client in
            var count = 0
            for try await row in try await client.query("SELECT count(*)::bigint FROM pg_tables WHERE schemaname = 'public'") {
                count = Int(try row.decode(Int64.self))
            }
            return count
        }
    }
}
