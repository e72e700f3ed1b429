import Foundation
import GRDB
import Testing
import WalletStorage

@testable import WalletSQLite

/// Reads run on connections of the store's own (`ReaderConnections`), beside GRDB's pool: they
/// see every commit, whoever made it, and never keep the store's `-wal` alive.
@Suite("SQLite reads on connections of their own")
struct ReaderConnectionsTests {
    static func count(_ backend: SQLiteBackend) async throws -> Int64? {
        try await backend.executor.read { connection in try await connection.integer("SELECT COUNT(*) FROM t", []) }
    }

    /// A store at `path` whose table `t` holds one row.
    static func backendWithOneRow(at path: String) async throws -> SQLiteBackend {
        let backend = try SQLiteFixtures.backend(at: path)
        try await backend.executor.write { connection in
            try await connection.execute("CREATE TABLE t (a)", [], reusable: false)
            try await connection.execute("INSERT INTO t VALUES (1)", [], reusable: false)
        }
        return backend
    }

    @Test("a read sees the commit made just before it, by this backend's writer and by another connection")
    func readsSeeCommits() async throws {
        let path = try SQLiteFixtures.path()
        let backend = try SQLiteFixtures.backend(at: path)
        try await backend.executor.write { connection in
            try await connection.execute("CREATE TABLE t (a)", [], reusable: false)
        }
        #expect(try await Self.count(backend) == 0)
        try await backend.executor.write { connection in
            try await connection.execute("INSERT INTO t VALUES (1)", [], reusable: true)
        }
        #expect(try await Self.count(backend) == 1)
        // Another process's connection, as far as SQLite can tell.
        let other = try DatabaseQueue(path: path)
        try await other.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try await Self.count(backend) == 2)
        try other.close()
        try await backend.close()
    }

    /// What every `orders` command does at exit. (An explicit `close()` may leave a `-wal`:
    /// GRDB's `DatabasePool.close()` closes its writer before its own readers. The next opening
    /// reads it, as the last test here shows.)
    @Test("a store dropped after reads leaves no -wal: the pool's writer closes last")
    func droppingCheckpoints() async throws {
        let path = try SQLiteFixtures.path()
        do {
            let backend = try await Self.backendWithOneRow(at: path)
            // Several reads at once, so that more than one connection is open.
            let counts = try await withThrowingTaskGroup(of: Int64?.self) { group in
                for _ in 0..<8 { group.addTask { try await Self.count(backend) } }
                return try await group.reduce(into: [Int64?]()) { $0.append($1) }
            }
            #expect(counts == Array(repeating: 1, count: 8))
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("after close, a read fails as on a closed pool; the store opened again has every commit")
    func readAfterClose() async throws {
        let path = try SQLiteFixtures.path()
        let backend = try await Self.backendWithOneRow(at: path)
        #expect(try await Self.count(backend) == 1)
        try await backend.close()
        await #expect(throws: (any Error).self) { try await Self.count(backend) }
        #expect(try await Self.count(try SQLiteFixtures.backend(at: path)) == 1)
    }
}
