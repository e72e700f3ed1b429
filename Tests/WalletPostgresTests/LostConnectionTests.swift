import Logging
import PostgresNIO
import StorageContract
import Synchronization
import Testing
import WalletCore
import WalletStorage

@testable import WalletPostgres

/// A connection the server closed fails the next statement at once. postgres-nio writes a
/// statement to its channel without a promise for the write, and once the channel has closed and
/// dropped its handlers such a write is lost: the statement's own promise is never kept and the
/// caller waits forever (vapor/postgres-nio#487, reverted in #501). The store checks the
/// connection on its event loop before each statement (``PostgresConnection/sending(_:)``).
@Suite(
    "PostgreSQL: statements on a connection the server closed",
    .enabled(if: TestPostgres.url != nil, Comment(rawValue: TestPostgres.skipNote)))
struct LostConnectionTests {
    static let logger = Logger(label: "test")

    @Test("a statement after the server closed the connection is store.unavailable at once, not a wait without end")
    func statementAfterClose() async throws {
        let backend = try await PostgresBackend.open(try await TestPostgres.newDatabase(), options: .init(maximumConnections: 1))
        let outcome = try await Self.within(.seconds(20)) {
            do {
                return try await backend.executor.servers.withConnection { connection in
                    try? await connection.run("SELECT pg_terminate_backend(pg_backend_pid())", logger: Self.logger)
                    // Completed after the channel removed its handlers: a write now reaches none.
                    try await connection.closeFuture.get()
                    try await connection.run("SELECT 1", logger: Self.logger)
                    return "answered"
                }
            } catch {
                return "\(error)"
            }
        }
        #expect(outcome?.contains("the connection to the server was lost") == true, "\(outcome ?? "no answer within 20 s")")
        // The pool made a new connection: the store goes on.
        #expect(try await backend.access.restriction(of: .orders) == nil)
        try await backend.close()
    }

    @Test("a unit of work whose connection the server closes ends with store.unavailable, every one of 40")
    func unitOfWorkOnClosedConnection() async throws {
        let backend = try await PostgresBackend.open(try await TestPostgres.newDatabase(), options: .init(maximumConnections: 1))
        var answers: [String] = []
        for _ in 0..<40 {
            let outcome = try await Self.within(.seconds(20)) {
                do {
                    try await backend.sqlExecutor.write { connection in
                        try await connection.execute("SELECT pg_terminate_backend(pg_backend_pid())", [], reusable: false)
                        try await connection.execute("SELECT 1", [], reusable: false)
                    }
                    return "committed"
                } catch let error as StorageError {
                    return error.code
                } catch {
                    return "\(error)"
                }
            }
            answers.append(outcome ?? "no answer within 20 s")
        }
        #expect(answers == Array(repeating: "store.unavailable", count: 40))
        try await backend.close()
    }

    /// `work`'s result, or nil when it has none within `limit`: the work runs in a task of its own,
    /// so a wait without end is reported instead of hanging the test run (the task is left).
    static func within<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async -> T) async throws -> T? {
        let answer = Answer<T>()
        return await withCheckedContinuation { continuation in
            answer.continuation.withLock { $0 = continuation }
            Task {
                let result = await work()
                answer.give(result)
            }
            Task {
                try? await Task.sleep(for: limit)
                answer.give(nil)
            }
        }
    }

    /// The first of a result and the deadline, given once.
    final class Answer<T: Sendable>: Sendable {
        let continuation = Mutex<CheckedContinuation<T?, Never>?>(nil)

        func give(_ result: T?) { continuation.withLock { $0.take() }?.resume(returning: result) }
    }
}
