import Foundation
import GRDB
import Testing
import WalletCore
import WalletStorage

@testable import WalletSQLite

@Suite("Statements run through SQLite's C API: binding, rows, failures")
struct PreparedStatementTests {
    /// Runs `body` in a unit of work holding a scratch table `t(a, b)`.
    static func withScratchTable<T: Sendable>(
        _ body: @Sendable @escaping (any SQLConnection) async throws -> T
    ) async throws -> T {
        let backend = try SQLiteFixtures.backend()
        return try await backend.executor.write { connection in
            try await connection.execute("CREATE TEMP TABLE t (a, b)", [], reusable: false)
            return try await body(connection)
        }
    }

    @Test("values come back as bound: empty text and blob, NUL inside text, NULL, extreme integers")
    func roundTrip() async throws {
        let rows = try await Self.withScratchTable { connection in
            for (a, b) in [
                (SQLValue.text(""), SQLValue.blob(Data())), (.text("a\u{0}b"), .blob(Data([0, 1, 2]))),
                (.null, .integer(Int64.min)), (.text("é🎉"), .integer(Int64.max)),
            ] {
                try await connection.execute("INSERT INTO t (a, b) VALUES ($1, $2)", [a, b])
            }
            return try await connection.fetch("SELECT a, b, typeof(a), typeof(b) FROM t ORDER BY rowid") { row in
                [try row.optionalText(0) ?? "NULL", try row.text(2), try row.text(3)]
            }
        }
        #expect(
            rows == [
                ["", "text", "blob"], ["a\u{0}b", "text", "blob"], ["NULL", "null", "integer"], ["é🎉", "text", "integer"],
            ])
        let bytes = try await Self.withScratchTable { connection in
            try await connection.execute("INSERT INTO t (a, b) VALUES ($1, $2)", [.blob(Data()), .blob(Data([9, 0, 9]))])
            return try await connection.fetchOne("SELECT a, b FROM t") { row in [try row.bytes(0), try row.bytes(1)] }
        }
        #expect(bytes == [Data(), Data([9, 0, 9])])
    }

    @Test("each parameter is bound by the number in its name, in any order and repeated")
    func placeholdersByNumber() async throws {
        let row = try await Self.withScratchTable { connection in
            try await connection.fetchOne("SELECT $2, $1, $2 || $1, $3", [.text("x"), .text("y"), .integer(3)]) { row in
                [try row.text(0), try row.text(1), try row.text(2), String(try row.integer(3))]
            }
        }
        #expect(row == ["y", "x", "yx", "3"])
    }

    @Test("a wrong number of arguments is a StorageError, not a crash, and the statement stays usable")
    func wrongArgumentCount() async throws {
        try await Self.withScratchTable { connection in
            for arguments: [SQLValue] in [[.integer(1)], [.integer(1), .integer(2), .integer(3)]] {
                await #expect(throws: StorageError.self) {
                    try await connection.execute("INSERT INTO t (a, b) VALUES ($1, $2)", arguments)
                }
            }
            try await connection.execute("INSERT INTO t (a, b) VALUES ($1, $2)", [.integer(1), .integer(2)])
            #expect(try await connection.integer("SELECT count(*) FROM t") == 1)
        }
    }

    @Test("a NULL or a value of another type where one is required names the column, not the statement")
    func unreadableColumn() async throws {
        for (sql, column) in [("SELECT NULL AS missing", "missing"), ("SELECT x'00' AS picture", "picture")] {
            let error = await #expect(throws: StorageError.self) {
                try await Self.withScratchTable { connection in
                    try await connection.fetchOne(sql) { row in try row.integer(0) }
                }
            }
            #expect(error?.reason.contains("in column \(column)") == true)
            #expect(error?.reason.contains("SELECT") == false)
        }
    }

    @Test("a statement SQLite refuses while stepping is a StorageError, and the unit rolls back")
    func failingStep() async throws {
        let backend = try SQLiteFixtures.backend()
        let error = await #expect(throws: StorageError.self) {
            try await backend.executor.write { connection in
                try await connection.execute("CREATE TABLE IF NOT EXISTS u (a INTEGER NOT NULL)", [], reusable: false)
                try await connection.execute("INSERT INTO u (a) VALUES ($1)", [.integer(1)])
                try await connection.execute("INSERT INTO u (a) VALUES ($1)", [.null])
            }
        }
        #expect(error?.reason.contains("NOT NULL") == true)
        let tables = try await backend.pool.read { db in try db.tableExists("u") }
        #expect(!tables)
    }
}
