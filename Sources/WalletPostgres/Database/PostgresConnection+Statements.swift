import Foundation
import Logging
import NIOCore
import PostgresNIO
import WalletCore
import WalletPrimitives
import WalletStorage

extension PostgresConnection {
    /// `statement` — which sends one statement and reads its rows — on this connection's event
    /// loop, after checking there that the connection is open; ``ConnectionLost`` when it is not.
    ///
    /// postgres-nio writes a statement to the channel without a promise for the write. Once the
    /// channel has closed and removed its handlers, such a write is dropped: the statement's own
    /// promise is never kept and its caller waits forever (vapor/postgres-nio#487, reverted in
    /// #501) — a request on a connection to a server that was just killed or restarted never
    /// ended. On the loop, an open channel cannot remove its handlers before a write made now
    /// reaches them, and the handler fails a statement written after the close.
    func sending<T>(_ statement: () async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(EventLoopTaskExecutor.of(eventLoop)) {
            guard !isClosed else { throw ConnectionLost() }
            return try await statement()
        }
    }

    /// Runs one statement (`$1`… placeholders) and returns every row it produced.
    ///
    /// Only the statement is sent on the loop; its rows are read and decoded where the caller runs
    /// (``PostgresThreads``): decoded on the loop, a read of 50,000 rows held every other
    /// connection of that loop.
    func rows(_ sql: String, _ arguments: [SQLValue] = [], logger: Logger) async throws -> [PostgresRandomAccessRow] {
        let sequence = try await sending { try await query(Self.query(sql, arguments), logger: logger) }
        var rows: [PostgresRandomAccessRow] = []
        for try await row in sequence {
            rows.append(row.makeRandomAccess())
        }
        return rows
    }

    /// `sql` as a transaction of its own: `BEGIN`, the statement and `COMMIT` handed to the
    /// connection at once, on its event loop, so that each is sent as the one before it is
    /// answered — by the loop, without waiting for this task. A lock the statement takes is held
    /// only until the server has `COMMIT`, never while this process is busy elsewhere. Its rows,
    /// once `COMMIT` is answered (which, with a synchronous standby, is once the standby has the
    /// commit; a commit whose wait a shutdown ended is never answered, and this throws).
    ///
    /// The statement runs unnamed (parsed each time): postgres-nio hands a named statement to the
    /// connection only from an `async` call, which cannot be followed by the `COMMIT` before it is
    /// answered.
    func committedRows(_ sql: String, _ arguments: [SQLValue], logger: Logger) async throws -> [PostgresRandomAccessRow] {
        let (begun, statement, committed) = try await sending {
            let begun: EventLoopFuture<PostgresQueryResult> = query(PostgresQuery(unsafeSQL: "BEGIN"), logger: logger)
            let statement: EventLoopFuture<PostgresQueryResult> = query(Self.query(sql, arguments), logger: logger)
            let committed: EventLoopFuture<PostgresQueryResult> = query(PostgresQuery(unsafeSQL: "COMMIT"), logger: logger)
            return (begun, statement, committed)
        }
        do {
            _ = try await begun.get()
            let rows = try await statement.get().rows.map { $0.makeRandomAccess() }
            // A failed statement makes COMMIT answer ROLLBACK; it was thrown above.
            _ = try await committed.get()
            return rows
        } catch {
            // Whatever is still queued runs before the connection's next statement.
            _ = try? await committed.get()
            throw error
        }
    }

    /// Runs one statement for its effect; its rows, if any, are drained and dropped.
    func run(_ sql: String, _ arguments: [SQLValue] = [], logger: Logger) async throws {
        for try await _ in try await sending({ try await query(Self.query(sql, arguments), logger: logger) }) {}
    }

    /// The first column of the first row, or nil when there is no row or it is NULL.
    func value<T: PostgresDecodable>(
        _ type: T.Type, _ sql: String, _ arguments: [SQLValue] = [], logger: Logger
    ) async throws -> T? where T._DecodableType == T {
        try await rows(sql, arguments, logger: logger).first.flatMap { try $0[0].decode(T?.self) }
    }

    /// A statement bound as PostgreSQL's extended protocol binds it: arguments never become SQL.
    static func query(_ sql: String, _ arguments: [SQLValue]) -> PostgresQuery {
        PostgresQuery(unsafeSQL: sql, binds: bindings(arguments))
    }

    static func bindings(_ arguments: [SQLValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .null: bindings.appendNull()
            case .integer(let value): bindings.append(value)
            case .text(let value): bindings.append(value)
            case .blob(let value): bindings.append(ByteBuffer(data: value))
            }
        }
        return bindings
    }

    /// Runs the statement of `slot` — prepared on this connection the first time — with
    /// `arguments`, calling `each` for every row.
    func prepared<Slot: PreparedSlot>(
        _ slot: Slot.Type, _ arguments: [SQLValue], logger: Logger, _ each: (PostgresRandomAccessRow) throws -> Void
    ) async throws {
        let statement = PreparedStatement<Slot>(bindings: Self.bindings(arguments))
        // Sent on the loop, read and decoded where the caller runs (see rows(_:_:logger:)).
        for try await row in try await sending({ try await execute(statement, logger: logger) }) {
            try each(row.makeRandomAccess())
        }
    }
}

/// ``WalletStorage/SQLConnection`` on one leased connection. The server's errors become
/// ``WalletCore/StorageError`` naming the SQLSTATE, which the executor's retry reads.
struct PostgresSQLConnection: SQLConnection {
    let connection: PostgresConnection
    let logger: Logger
    /// Where the database is, for messages.
    let location: String
    /// Whether statements marked reusable run prepared (``PreparedStatements``).
    let prepares: Bool
    /// In a unit of work (`BEGIN` sent): the unit's `COMMIT` commits every statement. Otherwise
    /// each statement is its own transaction, and writes must be ``fetchCommitted(_:_:_:)``.
    let inTransaction: Bool

    func fetch<T>(
        _ sql: String, _ arguments: [SQLValue], reusable: Bool, _ decode: (any SQLRow) throws -> T
    ) async throws -> [T] {
        assert(inTransaction || !Self.writes(sql), "a write outside a unit of work is answered before it is committed")
        var results: [T] = []
        do {
            if reusable, prepares, let slot = PreparedStatements.slot(for: sql, arguments) {
                try await connection.prepared(slot, arguments, logger: logger) { results.append(try decode($0)) }
            } else {
                let rows = try await connection.sending {
                    try await connection.query(PostgresConnection.query(sql, arguments), logger: logger)
                }
                for try await row in rows {
                    results.append(try decode(row.makeRandomAccess()))
                }
            }
        } catch let error as PostgresDecodingError {
            throw StorageError.unreadableRow(column: error.columnName, in: location)
        } catch  where error is PSQLError || error is ConnectionLost {
            throw StorageError(postgres: error, location: location)
        }
        return results
    }

    func fetchOne<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (any SQLRow) throws -> T) async throws -> T? {
        try await fetch(sql, arguments, reusable: true, decode).first
    }

    func integer(_ sql: String, _ arguments: [SQLValue]) async throws -> Int64? {
        try await firstInteger(sql, arguments)
    }

    func text(_ sql: String, _ arguments: [SQLValue]) async throws -> String? {
        try await firstText(sql, arguments)
    }

    func fetchCommitted<T>(_ sql: String, _ arguments: [SQLValue], _ decode: (any SQLRow) throws -> T) async throws -> [T] {
        guard !inTransaction else { return try await fetch(sql, arguments, reusable: true, decode) }
        do {
            return try await connection.committedRows(sql, arguments, logger: logger).map(decode)
        } catch let error as PostgresDecodingError {
            throw StorageError.unreadableRow(column: error.columnName, in: location)
        } catch  where error is PSQLError || error is ConnectionLost {
            throw StorageError(postgres: error, location: location)
        }
    }

    /// Whether `sql` changes data: such a statement outside a unit of work would be answered
    /// before its commit (``fetchCommitted(_:_:_:)`` is the way).
    static func writes(_ sql: String) -> Bool {
        ["INSERT ", "UPDATE ", "DELETE "].contains { sql.contains($0) }
    }

    func execute(_ sql: String, _ arguments: [SQLValue], reusable: Bool) async throws {
        assert(inTransaction || !Self.writes(sql), "a write outside a unit of work is answered before it is committed")
        do {
            if reusable, prepares, let slot = PreparedStatements.slot(for: sql, arguments) {
                try await connection.prepared(slot, arguments, logger: logger) { _ in }
            } else {
                try await connection.run(sql, arguments, logger: logger)
            }
        } catch  where error is PSQLError || error is ConnectionLost {
            throw StorageError(postgres: error, location: location)
        }
    }
}

/// Rows read by column index, as every repository reads them.
extension PostgresRandomAccessRow: SQLRow {
    package func text(_ index: Int) throws -> String { try self[index].decode(String.self) }
    package func optionalText(_ index: Int) throws -> String? { try self[index].decode(String?.self) }
    package func integer(_ index: Int) throws -> Int64 { try self[index].decode(Int64.self) }
    package func optionalInteger(_ index: Int) throws -> Int64? { try self[index].decode(Int64?.self) }
    package func bytes(_ index: Int) throws -> Data { try self[index].decode(Data.self) }
    package func optionalBytes(_ index: Int) throws -> Data? { try self[index].decode(Data?.self) }
    package func bool(_ index: Int) throws -> Bool { try self[index].decode(Bool.self) }
}

/// A statement was not sent: the connection's channel had closed (the server ended the session,
/// was killed or restarted, or the network dropped it).
struct ConnectionLost: Error, CustomStringConvertible {
    var description: String { "the connection to the server was lost" }
}
