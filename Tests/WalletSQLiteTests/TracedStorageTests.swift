import Foundation
import InMemoryTracing
import Testing
import Tracing
import WalletStorage

@testable import WalletSQLite

/// Every read and unit of work of a store opened with a tracer is one span, a child of the span
/// its caller is in (docs/deployment.md, "Metrics and traces").
@Suite("Storage spans: one per read or unit of work")
struct TracedStorageTests {
    @Test("reads, units of work and a failing read: one span each, children of the caller's, no arguments recorded")
    func oneSpanPerCall() async throws {
        let tracer = InMemoryTracer()
        let backend = try SQLiteBackend(path: SQLiteFixtures.path(), options: .init(tracer: tracer))
        let executor = backend.sqlExecutor
        try await tracer.withAnySpan("caller") { _ in
            _ = try await executor.read { try await $0.integer("SELECT $1 + 1", [.integer(41)]) }
            try await executor.write { try await $0.execute("CREATE TEMP TABLE t (a)", [], reusable: false) }
            try await executor.writeStatements {
                try await $0.execute("INSERT INTO t VALUES ($1)", [.text("secret")], reusable: false)
            }
            await #expect(throws: (any Error).self) {
                try await executor.read { try await $0.execute("SELECT * FROM no_such_table", [], reusable: false) }
            }
        }
        let spans = tracer.finishedSpans
        let caller = try #require(spans.first { $0.operationName == "caller" })
        let storage = spans.filter { $0.kind == .client }
        #expect(storage.map(\.operationName) == ["sqlite read", "sqlite write", "sqlite write", "sqlite read"])
        for span in storage {
            #expect(span.parentSpanID == caller.spanID && span.traceID == caller.traceID)
            #expect(span.attributes.get("db.system.name")?.toSpanAttribute() == "sqlite")
        }
        #expect(storage.map { $0.attributes.get("db.operation.name")?.toSpanAttribute() } == ["read", "write", "write", "read"])
        #expect(storage.last?.status?.code == .error, "the failing read's span says so")
        #expect(storage.dropLast().allSatisfy { $0.status == nil })
        #expect(!"\(spans)".contains("secret"), "no statement argument reaches a span")
    }

    @Test("without a tracer (none bootstrapped), the store runs on its executor unwrapped: no span, no cost")
    func noTracerNoWrapper() throws {
        let backend = try SQLiteBackend(path: SQLiteFixtures.path())
        #expect(backend.sqlExecutor is SQLiteExecutor)
    }
}
