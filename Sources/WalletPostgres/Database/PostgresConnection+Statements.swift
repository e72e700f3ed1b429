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
    func rows(_ sql: String, _ arguments: [SQLValue] = [], logger: Logger) async throws -> [PostgresRandomAccessRow] {
        try await sending {
            var rows: [PostgresRandomAccessRow] = []
            for try await row in try await query(Self.query(sql, arguments), logger: logger) {
                rows.append(row.makeRandomAccess())
            }
            return rows
        }
    }

    /// Runs one statement for its effect; its rows, if any, are drained and dropped.
    func run(_ sql: String, _ arguments: [SQLValue] = [], logger: Logger) async throws {
        try await sending {
            for try await _ in try await query(Self.query(sql, arguments), logger: logger) {}
        }
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
        try await sending {
            for try await row in try await execute(statement, logger: logger) {
                try each(row.makeRandomAccess())
            }
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

    func fetch<T>(
        _ sql: String, _ arguments: [SQLValue], reusable: Bool, _ decode: (any SQLRow) throws -> T
    ) async throws -> [T] {
        var results: [T] = []
        do {
            if reusable, prepares, let slot = PreparedStatements.slot(for: sql, arguments) {
                try await connection.prepared(slot, arguments, logger: logger) { results.append(try decode($0)) }
            } else {
                try await connection.sending {
                    for try await row in try await connection.query(PostgresConnection.query(sql, arguments), logger: logger) {
                        results.append(try decode(row.makeRandomAccess()))
                    }
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

    func execute(_ sql: String, _ arguments: [SQLValue], reusable: Bool) async throws {
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
