import Foundation
import StorageContract
import Testing
import WalletCore
import WalletPostgres
import WalletStorage

/// Statements the store repeats are prepared once per connection and then run by name; with
/// `prepared=false` none is; a prepared statement the server lost (a pooler in transaction mode
/// would lose them) is one line saying what to change.
@Suite("PostgreSQL prepared statements", .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipNote)))
struct PreparedStatementTests {
    /// The statements prepared on the backend's one connection, with how often each ran.
    static func prepared(on backend: PostgresBackend) async throws -> [(name: String, sql: String, runs: Int64)] {
        try await backend.sqlExecutor.read { connection in
            try await connection.fetch(
                "SELECT name, statement, generic_plans + custom_plans FROM pg_prepared_statements ORDER BY name", [],
                reusable: false
            ) { (try $0.text(0), try $0.text(1), try $0.integer(2)) }
        }
    }

    @Test("a repeated statement is parsed once and run by name; prepared=false prepares nothing", arguments: [true, false])
    func repeated(_ prepares: Bool) async throws {
        var url = try await TestPostgres.newDatabase()
        url.prepared = prepares
        let backend = try await PostgresBackend.open(url, options: .init(maximumConnections: 1))
        for _ in 0..<5 { #expect(try await backend.access.restriction(of: .orders) == nil) }
        let statements = try await Self.prepared(on: backend)
        if prepares {
            let restriction = statements.first { $0.sql.contains("FROM restrictions") }
            #expect(restriction?.name.hasPrefix("wallet_") == true)
            #expect(restriction?.runs == 5)
        } else {
            #expect(statements.isEmpty)
        }
        try await backend.close()
    }

    @Test("a NULL argument where a value was bound before is a statement of its own, and both give the same rows")
    func nullVariants() async throws {
        let backend = try await PostgresBackend.open(try await TestPostgres.newDatabase(), options: .init(maximumConnections: 1))
        let select = "SELECT coalesce($1, 7) + 0"
        let values: [SQLValue] = [.integer(3), .null, .integer(4), .null]
        let answers = try await backend.sqlExecutor.read { connection in
            var answers: [Int64] = []
            for value in values { answers.append(try await connection.integer(select, [value]) ?? -1) }
            return answers
        }
        #expect(answers == [3, 7, 4, 7])
        #expect(try await Self.prepared(on: backend).filter { $0.sql == select }.map(\.runs) == [2, 2])
        try await backend.close()
    }

    @Test(
        "through PgBouncer in transaction pooling, a statement prepared in one server session and run in another is one line",
        .enabled(if: TestPostgres.poolers.contains { $0.mode == "transaction" }))
    func transactionPooling() async throws {
        var url = try await TestPostgres.newDatabase(route: "transaction")
        url.prepared = true
        let (a, b) = (
            try await PostgresBackend.open(url, options: .init(maximumConnections: 1)),
            try await PostgresBackend.open(url, options: .init(maximumConnections: 1))
        )
        _ = try await a.access.restriction(of: .orders)  // prepared in the session PgBouncer lends next
        let reason = try await b.sqlExecutor.write { connection in
            // Holding that session in a transaction, PgBouncer lends `a` another one.
            _ = try await connection.integer("SELECT 1", [])
            do {
                _ = try await a.access.restriction(of: .orders)
                return "no error"
            } catch {
                return (error as? StorageError)?.reason ?? "\(error)"
            }
        }
        #expect(reason.contains("add prepared=false to the database URL"), "\(reason)")
        // With prepared=false, as the transaction route gives it, the same steps work.
        url.prepared = false
        let (c, d) = (
            try await PostgresBackend.open(url, options: .init(maximumConnections: 1)),
            try await PostgresBackend.open(url, options: .init(maximumConnections: 1))
        )
        _ = try await c.access.restriction(of: .orders)
        let restriction = try await d.sqlExecutor.write { connection in
            _ = try await connection.integer("SELECT 1", [])
            return try await c.access.restriction(of: .orders)
        }
        #expect(restriction == nil)
        for backend in [a, b, c, d] { try await backend.close() }
    }

    @Test("a prepared statement the server no longer has is one line: add prepared=false to the URL")
    func lost() async throws {
        let backend = try await PostgresBackend.open(try await TestPostgres.newDatabase(), options: .init(maximumConnections: 1))
        _ = try await backend.access.restriction(of: .orders)
        // What a pooler in transaction mode does: the next server session never saw the PREPARE.
        try await backend.sqlExecutor.read { try await $0.execute("DEALLOCATE ALL", [], reusable: false) }
        await #expect {
            try await backend.access.restriction(of: .orders)
        } throws: { error in
            let reason = (error as? StorageError)?.reason ?? ""
            return reason.contains("add prepared=false to the database URL") && reason.contains("[SQLSTATE 26000]")
                && !reason.contains("\n")
        }
        try await backend.close()
    }
}
