/// One database connection as the repositories of this module use it: statements with bound
/// values, written with PostgreSQL's numbered placeholders (`$1`, `$2`, …; SQLite reads each as a
/// parameter named after its number), and rows read by index.
///
/// A connection is handed to the body of an ``SQLExecutor`` call and is valid only inside it.
package protocol SQLConnection: Sendable {
    /// Runs one statement and decodes each row it returns, in order.
    ///
    /// - Parameter reusable: whether the backend may keep the compiled statement for the next
    ///   call with the same text. False for text built per call (lists of placeholders, rendered
    ///   filters), whose variety has no bound.
    func fetch<T>(
        _ sql: String, _ arguments: [SQLValue], reusable: Bool, _ decode: (any SQLRow) throws -> T
    ) async throws
        -> [T]

    /// Runs one statement and decodes its first row; nil when it returns none.
    func fetchOne<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (any SQLRow) throws -> T) async throws -> T?

    /// The first column of the first row as an integer; nil when there is no row or it is NULL.
    func integer(_ sql: String, _ arguments: [SQLValue]) async throws -> Int64?

    /// The first column of the first row as text; nil when there is no row or it is NULL.
    func text(_ sql: String, _ arguments: [SQLValue]) async throws -> String?

    /// Runs one statement for its effect. Statements that must tell whether they changed a row
    /// say `RETURNING 1` and are fetched.
    func execute(_ sql: String, _ arguments: [SQLValue], reusable: Bool) async throws

    /// Runs one statement that writes and decodes the rows it returns, once its effect is
    /// committed: in a unit of work, as ``fetch(_:_:reusable:_:)`` (the unit commits it);
    /// otherwise (``SQLExecutor/writeStatements(_:)`` on PostgreSQL) as a transaction of its own,
    /// returning only after the reply to its `COMMIT`.
    func fetchCommitted<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (any SQLRow) throws -> T) async throws -> [T]
}

extension SQLConnection {
    /// Where every statement runs in a unit of work (SQLite's writer, a bound executor), a
    /// committed write is a write.
    package func fetchCommitted<T>(
        _ sql: String, _ arguments: [SQLValue], _ decode: (any SQLRow) throws -> T
    ) async throws -> [T] {
        try await fetch(sql, arguments, reusable: false, decode)
    }

    package func fetch<T>(_ sql: String, _ arguments: [SQLValue] = [], _ decode: (any SQLRow) throws -> T) async throws -> [T] {
        try await fetch(sql, arguments, reusable: true, decode)
    }

    package func execute(_ sql: String, _ arguments: [SQLValue] = []) async throws {
        try await execute(sql, arguments, reusable: true)
    }

    package func fetchOne<T>(_ sql: String, _ decode: (any SQLRow) throws -> T) async throws -> T? {
        try await fetchOne(sql, [], decode)
    }

    /// Whether the statement returned a row (`SELECT 1 …`, `… RETURNING 1`).
    package func returnsRow(_ sql: String, _ arguments: [SQLValue] = []) async throws -> Bool {
        try await fetchOne(sql, arguments) { _ in () } != nil
    }

    /// How many rows the statement returned (`DELETE … RETURNING 1`).
    package func count(_ sql: String, _ arguments: [SQLValue] = []) async throws -> Int {
        try await fetch(sql, arguments, reusable: true) { _ in () }.count
    }

    package func integer(_ sql: String) async throws -> Int64? {
        try await integer(sql, [])
    }

    package func text(_ sql: String) async throws -> String? {
        try await text(sql, [])
    }

    /// ``integer(_:_:)`` and ``text(_:_:)`` for a backend without a faster way.
    package func firstInteger(_ sql: String, _ arguments: [SQLValue]) async throws -> Int64? {
        try await fetchOne(sql, arguments) { try $0.optionalInteger(0) } ?? nil
    }

    package func firstText(_ sql: String, _ arguments: [SQLValue]) async throws -> String? {
        try await fetchOne(sql, arguments) { try $0.optionalText(0) } ?? nil
    }
}
