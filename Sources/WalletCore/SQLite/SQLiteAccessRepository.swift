import Foundation
import GRDB

/// ``AccessRepository`` in the shared SQLite file.
public final class SQLiteAccessRepository: AccessRepository {
    public let database: DatabasePool

    /// Uses a pool whose migrator registered ``WalletCoreSchema``.
    public init(database: DatabasePool) {
        self.database = database
    }

    public func restriction(of type: DataType) async throws(StorageError) -> Date? {
        try read { db in
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT since FROM restrictions WHERE dataType = ?"), arguments: [type.rawValue]
            )
            .map(Self.date)
        }
    }

    public func setRestricted(_ type: DataType, _ restricted: Bool, at time: Date) async throws(StorageError) {
        try await write { db in
            if restricted {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO restrictions (dataType, since) VALUES (?, ?)",
                    arguments: [type.rawValue, Self.micros(time)])
            } else {
                try db.execute(sql: "DELETE FROM restrictions WHERE dataType = ?", arguments: [type.rawValue])
            }
        }
    }

    public func access(for client: ClientIdentifier) async throws(StorageError) -> ClientAccess {
        try read { db in try Self.access(for: client, in: db) }
    }

    public func clients() async throws(StorageError) -> [ClientAccess] {
        try read { db in
            let names = try String.fetchAll(
                db,
                sql:
                    "SELECT client FROM clients UNION SELECT client FROM clientOrderTypes UNION SELECT client FROM clientAccounts ORDER BY 1"
            )
            return try names.map { try Self.access(for: ClientIdentifier(stringLiteral: $0), in: db) }
        }
    }

    public func recordDecision(
        _ decision: AuthorizationDecision, for client: ClientIdentifier, at time: Date
    ) async throws(StorageError) -> ClientAccess {
        try await write { db in
            let current = try Self.access(for: client, in: db)
            guard current.status == .notDetermined else { return current }
            switch decision {
            case .authorized(let accounts):
                try Self.setStatus(.authorized, for: client, at: time, in: db)
                try Self.share(accounts, with: client, in: db)
            case .denied:
                try Self.setStatus(.denied, for: client, at: time, in: db)
            }
            return try Self.access(for: client, in: db)
        }
    }

    public func grant(_ accounts: [AccountGrant], to client: ClientIdentifier, at time: Date) async throws(StorageError) {
        try await write { db in
            try Self.setStatus(.authorized, for: client, at: time, in: db)
            try Self.share(accounts, with: client, in: db)
        }
    }

    public func deny(_ client: ClientIdentifier, at time: Date) async throws(StorageError) {
        try await write { db in
            try Self.setStatus(.denied, for: client, at: time, in: db)
            try db.execute(sql: "DELETE FROM clientAccounts WHERE client = ?", arguments: [client.rawValue])
        }
    }

    public func revoke(_ client: ClientIdentifier, accounts: [UUID], at time: Date) async throws(StorageError) {
        try await write { db in
            if accounts.isEmpty {
                try Self.setStatus(.denied, for: client, at: time, in: db)
                try db.execute(sql: "DELETE FROM clientAccounts WHERE client = ?", arguments: [client.rawValue])
                try db.execute(sql: "DELETE FROM historyCursors WHERE client = ?", arguments: [client.rawValue])
            } else {
                for account in accounts {
                    try db.execute(
                        sql: "DELETE FROM clientAccounts WHERE client = ? AND accountID = ?",
                        arguments: [client.rawValue, account.uuidString])
                }
            }
        }
    }

    public func entitle(_ client: ClientIdentifier, toOrderTypes types: Set<String>) async throws(StorageError) {
        try await write { db in
            for type in types.sorted() {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO clientOrderTypes (client, orderTypeIdentifier) VALUES (?, ?)",
                    arguments: [client.rawValue, type])
            }
        }
    }

    public func removeEntitlements(_ client: ClientIdentifier, toOrderTypes types: Set<String>) async throws(StorageError) {
        try await write { db in
            for type in types.sorted() {
                try db.execute(
                    sql: "DELETE FROM clientOrderTypes WHERE client = ? AND orderTypeIdentifier = ?",
                    arguments: [client.rawValue, type])
            }
        }
    }

    public func createCursor(for client: ClientIdentifier, stream: String, at time: Date) async throws(StorageError) -> Int64 {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO historyCursors (client, stream, createdAt) VALUES (?, ?, ?)",
                arguments: [client.rawValue, stream, Self.micros(time)])
            return db.lastInsertedRowID
        }
    }

    public func isCursorValid(_ id: Int64, for client: ClientIdentifier, stream: String) async throws(StorageError) -> Bool {
        try read { db in
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM historyCursors WHERE id = ? AND client = ? AND stream = ?"),
                arguments: [id, client.rawValue, stream]) ?? false
        }
    }

    public func storeGeneration() async throws(StorageError) -> String {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM storeInfo WHERE key = 'generation'") ?? "" }
    }

    // MARK: - Helpers

    private static func access(for client: ClientIdentifier, in db: Database) throws -> ClientAccess {
        let status =
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT status FROM clients WHERE client = ?"), arguments: [client.rawValue]
            )
            .flatMap(AuthorizationStatus.init(rawValue:)) ?? .notDetermined
        let accounts = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT accountID, earliestDate FROM clientAccounts WHERE client = ?"),
            arguments: [client.rawValue]
        ).compactMap { row -> AccountGrant? in
            guard let id = UUID(uuidString: row["accountID"]) else { return nil }
            return AccountGrant(accountID: id, earliestDate: (row["earliestDate"] as Int64?).map(date))
        }
        let types = try String.fetchAll(
            db.cachedStatement(sql: "SELECT orderTypeIdentifier FROM clientOrderTypes WHERE client = ?"),
            arguments: [client.rawValue])
        return ClientAccess(client: client, status: status, accounts: accounts, orderTypeIdentifiers: Set(types))
    }

    private static func setStatus(
        _ status: AuthorizationStatus, for client: ClientIdentifier, at time: Date, in db: Database
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO clients (client, status, decidedAt) VALUES (?, ?, ?)
                ON CONFLICT (client) DO UPDATE SET status = excluded.status, decidedAt = excluded.decidedAt
                """, arguments: [client.rawValue, status.rawValue, micros(time)])
    }

    private static func share(_ accounts: [AccountGrant], with client: ClientIdentifier, in db: Database) throws {
        for account in accounts {
            try db.execute(
                sql: """
                    INSERT INTO clientAccounts (client, accountID, earliestDate) VALUES (?, ?, ?)
                    ON CONFLICT (client, accountID) DO UPDATE SET earliestDate = excluded.earliestDate
                    """, arguments: [client.rawValue, account.accountID.uuidString, account.earliestDate.map(micros)])
        }
    }

    static func micros(_ date: Date) -> Int64 { Microseconds.since1970(date) }

    static func date(_ micros: Int64) -> Date { Microseconds.date(micros) }

    /// Reads on the calling thread (see SQLiteOrderRepository for why).
    private func read<T>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw StorageError(reason: StoreDatabase.describe(error))
        }
    }

    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        do {
            return try await database.write(body)
        } catch {
            throw StorageError(reason: StoreDatabase.describe(error))
        }
    }
}
