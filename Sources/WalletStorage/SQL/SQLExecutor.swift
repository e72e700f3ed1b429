/// How the repositories of this module reach one backend's database: reads, units of work, and
/// conditional statements, each handing its body an ``SQLConnection``; and the backend's
/// ``SQLDialect``.
///
/// Every storage rule is written once, against this protocol (``SQLRepositories``); a backend
/// implements it with its own connections and transactions:
///
/// - SQLite (one writer per file): a unit of work takes the backend's writer, begins
///   `IMMEDIATE` and runs each statement on the writer connection; reads run on reader
///   connections, each statement in a snapshot of its own.
/// - PostgreSQL (many writers): a unit of work is a transaction on a leased connection, run
///   again from the start on a serialization failure or deadlock — so a body must be safe to run
///   twice: it only talks to the database.
///
/// Every write is a transaction with an explicit `COMMIT`, however small: its caller acts on it
/// (answers `200`, prints `added`) only once the reply to that `COMMIT` has come. A statement run
/// on its own (autocommit) through PostgreSQL's extended protocol is answered before its implicit
/// commit — which, with a synchronous standby, waits for the standby — so a server stopped during
/// that wait had already told the client "done" for a commit the standby never received.
package protocol SQLExecutor: Sendable {
    /// How this backend writes what differs.
    var dialect: any SQLDialect { get }

    /// Statements that read. Each sees a committed state of its own; a read that needs several
    /// tables in one state is written as one statement.
    func read<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T

    /// A unit of work: the body's statements commit together when it returns and none of them
    /// when it throws; its reads see its writes. It returns only once the commit is confirmed.
    func write<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T

    /// Reads, and writes each correct on its own — conditional writes that hold only if what they
    /// were decided on is still so, and say whether they did — made with
    /// ``SQLConnection/fetchCommitted(_:_:_:)``. PostgreSQL runs each such write as a transaction
    /// of its own, sent with its `BEGIN` and `COMMIT` at once, so that no lock waits for this
    /// process between them; SQLite, whose writer is one at a time anyway, runs the body as one
    /// unit of work.
    func writeStatements<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T
}

/// The executor inside a unit of work: everything runs on the unit's connection, in its open
/// transaction (``StorageBackend/withTransaction(_:)``).
package struct BoundExecutor: SQLExecutor {
    package let dialect: any SQLDialect
    let connection: any SQLConnection

    package init(dialect: any SQLDialect, connection: any SQLConnection) {
        self.dialect = dialect
        self.connection = connection
    }

    package func read<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await body(connection)
    }

    package func write<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await body(connection)
    }

    package func writeStatements<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await body(connection)
    }
}
