import Foundation
import NIOCore
import StorageContract
import Testing
import WalletStorage

@testable import WalletPostgres

/// A read's or unit of work's body — the repositories' code and the decoding of rows — runs on
/// the backend's own threads, never on an event loop; statements go out on the backend's own
/// event loops, never the HTTP server's (docs/design.md, "One threading model").
/// `StorageOffThePoolTests` measures what that buys; this checks where each part runs.
@Suite(
    "PostgreSQL's bodies run on threads of their own",
    .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipNote)))
struct PostgresThreadsTests {
    /// The calling thread's name, as the system has it (Linux's `/proc/thread-self/comm`).
    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?")
            .trimmingCharacters(in: .newlines)
    }

    /// Where the body runs, then where each of its rows is decoded.
    static func places(_ connection: any SQLConnection) async throws -> [String] {
        let decoded = try await connection.fetch("SELECT generate_series(1, 3)", [], reusable: false) { _ in threadName() }
        return [threadName()] + decoded
    }

    @Test("reads, units of work and committed statements run their bodies and decode their rows on postgres-N")
    func bodiesOnTheBackendsThreads() async throws {
        let backend = try await PostgresBackend.open(try await TestPostgres.newDatabase(), options: .init(maximumConnections: 2))
        let executor = backend.sqlExecutor
        let caller = Self.threadName()
        var places = try await executor.read { try await Self.places($0) }
        places += try await executor.write { try await Self.places($0) }
        places += try await executor.writeStatements { try await Self.places($0) }
        #expect(places.count == 12)
        for name in places {
            #expect(name.hasPrefix("postgres-"), "a body ran on \(name)")
        }
        #expect(!caller.hasPrefix("postgres-"))
        try await backend.close()
    }

    @Test("the connections' event loops are the backend's own, not MultiThreadedEventLoopGroup.singleton's")
    func ownEventLoops() async throws {
        let backend = try await PostgresBackend.open(try await TestPostgres.newDatabase(), options: .init(maximumConnections: 1))
        let loop = try await backend.sqlExecutor.read { connection in
            try #require(connection as? PostgresSQLConnection).connection.eventLoop
        }
        let own = PostgresEventLoops.group.makeIterator()
        #expect(own.contains { $0 === loop })
        try await backend.close()
    }
}
