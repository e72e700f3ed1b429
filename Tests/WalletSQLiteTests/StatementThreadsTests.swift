import Foundation
import TestArchiveTable
import Testing
import WalletStorage

@testable import WalletSQLite

/// Every statement runs on the backend's statement threads, never on Swift concurrency's pool
/// (docs/design.md, "One threading model"). `StorageOffThePoolTests` measures what
/// that buys; this checks where the statements run.
@Suite("SQLite statements run on threads of their own")
struct StatementThreadsTests {
    /// The calling thread's name, as `Thread` set it (Linux's `/proc/thread-self/comm`).
    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?")
            .trimmingCharacters(in: .newlines)
    }

    /// Where a statement of a read and of a unit of work runs: on the connection, as statements do.
    static func statementThreads(_ backend: SQLiteBackend) async throws -> [String] {
        let read = try await backend.executor.read { connection in
            try #require(connection as? SQLiteConnection).onDatabase { _ in threadName() }
        }
        let written = try await backend.executor.write { connection in
            try await connection.execute("CREATE TEMP TABLE IF NOT EXISTS t (a)", [], reusable: false)
            return try #require(connection as? SQLiteConnection).onDatabase { _ in threadName() }
        }
        return [read, written]
    }

    @Test("reads and units of work, from the pool or from another executor's threads, run on sqlite-N")
    func statementsOnStatementThreads() async throws {
        let backend = try SQLiteFixtures.backend()
        let callers = [Self.threadName()]
        let fromPool = try await Self.statementThreads(backend)
        let fromOther = try await withTaskExecutorPreference(DedicatedExecutor.servers) {
            try await Self.statementThreads(backend)
        }
        for name in fromPool + fromOther {
            #expect(name.hasPrefix("sqlite-"), "a statement ran on \(name)")
        }
        #expect(!callers[0].hasPrefix("sqlite-"))
    }

    @Test("more reads at once than there are threads all finish: the rest queue, none is lost")
    func moreReadsThanThreads() async throws {
        let backend = try SQLiteFixtures.backend()
        let answers = try await withThrowingTaskGroup(of: Int64?.self) { group in
            for index in 0..<64 {
                group.addTask {
                    try await backend.executor.read { connection in
                        try await connection.integer("SELECT $1 + 1", [.integer(Int64(index))])
                    }
                }
            }
            return try await group.reduce(into: [Int64]()) { $0.append($1 ?? -1) }
        }
        #expect(answers.sorted() == (1...64).map(Int64.init))
    }
}
