import Tracing

/// An executor whose every read and unit of work is a span of a tracer (swift-distributed-tracing),
/// a child of the span the caller is in — a request's, for the service.
///
/// One span per storage call (a read, a unit of work), not per statement: that is the unit that
/// waits for a connection and commits, and what a trace should show against the request's time.
/// Named `<system> read` or `<system> write`, with OpenTelemetry's `db.system.name` and
/// `db.operation.name`; never a statement's arguments (orders and financial data are personal).
package struct TracedSQLExecutor: SQLExecutor {
    let base: any SQLExecutor
    let tracer: any Tracer
    /// OpenTelemetry's name for the database: `sqlite`, `postgresql`.
    let system: String

    /// `executor` with spans of `tracer` — of the tracer bootstrapped with `InstrumentationSystem`
    /// when nil. `executor` itself when that tracer is the no-op one: no spans, no cost.
    package static func wrapping(_ executor: any SQLExecutor, tracer: (any Tracer)?, system: String) -> any SQLExecutor {
        guard let tracer = EffectiveTracer.resolve(tracer) else { return executor }
        return TracedSQLExecutor(base: executor, tracer: tracer, system: system)
    }

    package var dialect: any SQLDialect { base.dialect }

    package func read<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await traced("read") { try await base.read(body) }
    }

    package func write<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await traced("write") { try await base.write(body) }
    }

    package func writeStatements<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await traced("write") { try await base.writeStatements(body) }
    }

    private func traced<T>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        try await tracer.withAnySpan("\(system) \(operation)", ofKind: .client) { span in
            span.attributes["db.system.name"] = system
            span.attributes["db.operation.name"] = operation
            return try await body()
        }
    }
}
