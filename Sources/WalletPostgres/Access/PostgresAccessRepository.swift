import Foundation
import PostgresNIO
import WalletCore
import WalletPrimitives
import WalletStorage

/// ``WalletCore/AccessRepository`` in PostgreSQL. Decisions that depend on what is stored are one
/// conditional statement each (a first answer to the prompt), so two processes answering at once
/// agree on which answer counts.
final class PostgresAccessRepository: AccessRepository {
    private let executor: PostgresExecutor

    init(executor: PostgresExecutor) {
        self.executor = executor
    }

    func restriction(of type: DataType) async throws(StorageError) -> Date? {
        try await executor.readAccess { connection, logger in
            try await connection.value(
                Int64.self, "SELECT since FROM restrictions WHERE dataType = $1", [.text(type.rawValue)], logger: logger
            ).map(Microseconds.date)
        }
    }

    func setRestricted(_ type: DataType, _ restricted: Bool, at time: Date) async throws(StorageError) {
        try await executor.writeAccess { connection, logger in
            if restricted {
                try await connection.run(
                    "INSERT INTO restrictions (dataType, since) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                    [.text(type.rawValue), .integer(Microseconds.since1970(time))], logger: logger)
            } else {
                try await connection.run("DELETE FROM restrictions WHERE dataType = $1", [.text(type.rawValue)], logger: logger)
            }
        }
    }

    func access(for client: ClientIdentifier) async throws(StorageError) -> ClientAccess {
        guard StorableText.isExact(client.rawValue) else { return ClientAccess(client: client, status: .notDetermined) }
        return try await executor.readAccess(consistent: true) { connection, logger in
            try await Self.access(for: client, on: connection, logger: logger)
        }
    }

    func orderTypeAccess(
        of client: ClientIdentifier, to orderTypeIdentifier: String
    ) async throws(StorageError) -> OrderTypeAccess {
        let exact = StorableText.isExact(client.rawValue) && StorableText.isExact(orderTypeIdentifier)
        return try await executor.readAccess { connection, logger in
            let row = try await connection.rows(
                """
                SELECT (SELECT since FROM restrictions WHERE dataType = $1),
                  EXISTS (SELECT 1 FROM clientOrderTypes WHERE client = $2 AND orderTypeIdentifier = $3)
                """,
                [.text(DataType.orders.rawValue), .text(exact ? client.rawValue : ""), .text(exact ? orderTypeIdentifier : "")],
                logger: logger
            ).first
            return OrderTypeAccess(
                restrictedSince: try row?.optionalInteger(0).map(Microseconds.date),
                isEntitled: try exact && row?.bool(1) ?? false)
        }
    }

    func clients() async throws(StorageError) -> [ClientAccess] {
        try await executor.readAccess(consistent: true) { connection, logger in
            let names = try await connection.rows(
                "SELECT client FROM clients UNION SELECT client FROM clientOrderTypes UNION SELECT client FROM clientAccounts ORDER BY 1",
                logger: logger
            ).map { try $0.text(0) }
            var clients: [ClientAccess] = []
            for name in names {
                clients.append(try await Self.access(for: ClientIdentifier(stringLiteral: name), on: connection, logger: logger))
            }
            return clients
        }
    }

    func recordDecision(
        _ decision: AuthorizationDecision, for client: ClientIdentifier, at time: Date
    ) async throws(StorageError) -> ClientAccess {
        try Self.requireExact(client)
        return try await executor.writeAccess { connection, logger in
            let status: AuthorizationStatus
            switch decision {
            case .authorized: status = .authorized
            case .denied: status = .denied
            case .dismissed: return try await Self.access(for: client, on: connection, logger: logger)
            }
            // Only the first answer counts: the row is written when there is none or it is still
            // notDetermined, atomically (a concurrent answer makes this one wait, then re-check).
            let decided = try await !connection.rows(
                """
                INSERT INTO clients (client, status, decidedAt) VALUES ($1, $2, $3)
                ON CONFLICT (client) DO UPDATE SET status = excluded.status, decidedAt = excluded.decidedAt
                WHERE clients.status = 'notDetermined' RETURNING 1
                """, [.text(client.rawValue), .text(status.rawValue), .integer(Microseconds.since1970(time))], logger: logger
            ).isEmpty
            if decided, case .authorized(let accounts) = decision {
                let before = ClientAccess(client: client, status: .notDetermined)
                try await Self.share(accounts, with: client, before: before, at: time, on: connection, logger: logger)
            }
            return try await Self.access(for: client, on: connection, logger: logger)
        }
    }

    func grant(_ accounts: [AccountGrant], to client: ClientIdentifier, at time: Date) async throws(StorageError) {
        try Self.requireExact(client)
        try await executor.writeAccess { connection, logger in
            try await Self.lock(client, on: connection, logger: logger)
            let before = try await Self.access(for: client, on: connection, logger: logger)
            try await Self.setStatus(.authorized, for: client, at: time, on: connection, logger: logger)
            try await Self.share(accounts, with: client, before: before, at: time, on: connection, logger: logger)
        }
    }

    func deny(_ client: ClientIdentifier, at time: Date) async throws(StorageError) {
        try Self.requireExact(client)
        try await executor.writeAccess { connection, logger in
            try await Self.setStatus(.denied, for: client, at: time, on: connection, logger: logger)
            try await connection.run("DELETE FROM clientAccounts WHERE client = $1", [.text(client.rawValue)], logger: logger)
        }
    }

    func revoke(_ client: ClientIdentifier, accounts: [UUID], at time: Date) async throws(StorageError) {
        try Self.requireExact(client)
        try await executor.writeAccess { connection, logger in
            let name: [SQLValue] = [.text(client.rawValue)]
            if accounts.isEmpty {
                try await Self.setStatus(.denied, for: client, at: time, on: connection, logger: logger)
                try await connection.run("DELETE FROM clientAccounts WHERE client = $1", name, logger: logger)
                try await connection.run("DELETE FROM historyCursors WHERE client = $1", name, logger: logger)
            } else {
                // What was withdrawn is what this statement deleted, whatever ran concurrently.
                var withdrawn: [UUID] = []
                for account in accounts {
                    if try await !connection.rows(
                        "DELETE FROM clientAccounts WHERE client = $1 AND accountID = $2 RETURNING 1",
                        name + [.text(account.uuidString)], logger: logger
                    ).isEmpty {
                        withdrawn.append(account)
                    }
                }
                try await PostgresFinanceChangeLog.record(
                    AccountAccessChange(client: client, withdrawn: withdrawn, time: time), on: connection, logger: logger)
            }
        }
    }

    func entitle(_ client: ClientIdentifier, toOrderTypes types: Set<String>) async throws(StorageError) {
        guard StorableText.isExact(client.rawValue), types.allSatisfy(StorableText.isExact) else {
            throw StorageError(reason: "an order type identifier containing U+0000 cannot be stored")
        }
        try await executor.writeAccess { connection, logger in
            try await Self.entitle(client, toOrderTypes: types, on: connection, logger: logger)
        }
    }

    /// Inside a write: the client may use orders of these types.
    static func entitle(
        _ client: ClientIdentifier, toOrderTypes types: Set<String>, on connection: PostgresConnection, logger: Logger
    ) async throws {
        for type in types.sorted() {
            try await connection.run(
                "INSERT INTO clientOrderTypes (client, orderTypeIdentifier) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                [.text(client.rawValue), .text(type)], logger: logger)
        }
    }

    func removeEntitlements(_ client: ClientIdentifier, toOrderTypes types: Set<String>) async throws(StorageError) {
        let types = types.filter(StorableText.isExact)
        guard StorableText.isExact(client.rawValue), !types.isEmpty else { return }
        try await executor.writeAccess { connection, logger in
            for type in types.sorted() {
                try await connection.run(
                    "DELETE FROM clientOrderTypes WHERE client = $1 AND orderTypeIdentifier = $2",
                    [.text(client.rawValue), .text(type)], logger: logger)
            }
        }
    }

    func createCursor(for client: ClientIdentifier, stream: String, at time: Date) async throws(StorageError) -> Int64 {
        guard StorableText.isExact(client.rawValue), StorableText.isExact(stream) else {
            throw StorageError(reason: "a client or stream name containing U+0000 cannot be stored")
        }
        return try await executor.writeAccess { connection, logger in
            guard
                let id = try await connection.value(
                    Int64.self, "INSERT INTO historyCursors (client, stream, createdAt) VALUES ($1, $2, $3) RETURNING id",
                    [.text(client.rawValue), .text(stream), .integer(Microseconds.since1970(time))], logger: logger)
            else { throw StorageError(reason: "the database returned no cursor id") }
            return id
        }
    }

    func isCursorValid(_ id: Int64, for client: ClientIdentifier, stream: String) async throws(StorageError) -> Bool {
        guard StorableText.isExact(client.rawValue), StorableText.isExact(stream) else { return false }
        return try await executor.readAccess { connection, logger in
            try await !connection.rows(
                "SELECT 1 FROM historyCursors WHERE id = $1 AND client = $2 AND stream = $3",
                [.integer(id), .text(client.rawValue), .text(stream)], logger: logger
            ).isEmpty
        }
    }

    func storeGeneration() async throws(StorageError) -> String {
        try await executor.readAccess { connection, logger in
            try await connection.value(String.self, "SELECT value FROM storeInfo WHERE key = 'generation'", logger: logger) ?? ""
        }
    }

    // MARK: - Helpers

    private static func requireExact(_ client: ClientIdentifier) throws(StorageError) {
        guard StorableText.isExact(client.rawValue) else {
            throw StorageError(reason: "a client identifier containing U+0000 cannot be stored")
        }
    }

    private static func access(
        for client: ClientIdentifier, on connection: PostgresConnection, logger: Logger
    ) async throws -> ClientAccess {
        let name: [SQLValue] = [.text(client.rawValue)]
        let status =
            try await connection.value(String.self, "SELECT status FROM clients WHERE client = $1", name, logger: logger)
            .flatMap(AuthorizationStatus.init(rawValue:)) ?? .notDetermined
        let accounts = try await connection.rows(
            "SELECT accountID, earliestDate FROM clientAccounts WHERE client = $1", name, logger: logger
        ).compactMap { row -> AccountGrant? in
            guard let id = UUID(uuidString: try row.text(0)) else { return nil }
            return AccountGrant(accountID: id, earliestDate: try row.optionalInteger(1).map(Microseconds.date))
        }
        let types = try await connection.rows(
            "SELECT orderTypeIdentifier FROM clientOrderTypes WHERE client = $1", name, logger: logger
        ).map { try $0.text(0) }
        return ClientAccess(client: client, status: status, accounts: accounts, orderTypeIdentifiers: Set(types))
    }

    /// Holds the client's row until the transaction ends, so that what a grant reads as shared
    /// before it is still so when it records what it shared.
    private static func lock(_ client: ClientIdentifier, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            "INSERT INTO clients (client, status, decidedAt) VALUES ($1, 'notDetermined', NULL) ON CONFLICT DO NOTHING",
            [.text(client.rawValue)], logger: logger)
        try await connection.run(
            "SELECT 1 FROM clients WHERE client = $1 FOR UPDATE", [.text(client.rawValue)], logger: logger)
    }

    private static func setStatus(
        _ status: AuthorizationStatus, for client: ClientIdentifier, at time: Date, on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        try await connection.run(
            """
            INSERT INTO clients (client, status, decidedAt) VALUES ($1, $2, $3)
            ON CONFLICT (client) DO UPDATE SET status = excluded.status, decidedAt = excluded.decidedAt
            """, [.text(client.rawValue), .text(status.rawValue), .integer(Microseconds.since1970(time))], logger: logger)
    }

    /// Shares the accounts and records those `before` did not share.
    private static func share(
        _ accounts: [AccountGrant], with client: ClientIdentifier, before: ClientAccess, at time: Date,
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        for account in accounts {
            try await connection.run(
                """
                INSERT INTO clientAccounts (client, accountID, earliestDate) VALUES ($1, $2, $3)
                ON CONFLICT (client, accountID) DO UPDATE SET earliestDate = excluded.earliestDate
                """, [.text(client.rawValue), .text(account.accountID.uuidString), account.earliestDate.microseconds],
                logger: logger)
        }
        let shared = accounts.map(\.accountID).filter { !before.shares($0) }
        try await PostgresFinanceChangeLog.record(
            AccountAccessChange(client: client, shared: shared, time: time), on: connection, logger: logger)
    }
}
