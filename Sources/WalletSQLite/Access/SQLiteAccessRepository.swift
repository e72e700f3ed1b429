import Foundation
import GRDB
import WalletCore
import WalletPrimitives
import WalletStorage

/// ``WalletCore/AccessRepository`` in the store file.
final class SQLiteAccessRepository: AccessRepository {
    /// Records what a write shared or withdrew, in that write's transaction (the finance change
    /// log, for clients' account history), so the two never disagree.
    typealias AccountChangeRecorder = @Sendable (AccountAccessChange, Database) throws -> Void

    private let executor: SQLiteExecutor
    private let recordAccountChange: AccountChangeRecorder

    /// `recordAccountChange` is called inside every write that shares or withdraws accounts;
    /// tests replace it to prove the two commit together.
    init(
        executor: SQLiteExecutor,
        recordAccountChange: @escaping AccountChangeRecorder = SQLiteFinanceDataRepository.recordAccessChange
    ) {
        self.executor = executor
        self.recordAccountChange = recordAccountChange
    }

    func restriction(of type: DataType) async throws(StorageError) -> Date? {
        try executor.readAccess(singleStatement: true) { db in
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT since FROM restrictions WHERE dataType = ?"), arguments: [type.rawValue]
            )
            .map(Microseconds.date)
        }
    }

    func setRestricted(_ type: DataType, _ restricted: Bool, at time: Date) async throws(StorageError) {
        try await executor.writeAccess { db in
            if restricted {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO restrictions (dataType, since) VALUES (?, ?)",
                    arguments: [type.rawValue, Microseconds.since1970(time)])
            } else {
                try db.execute(sql: "DELETE FROM restrictions WHERE dataType = ?", arguments: [type.rawValue])
            }
        }
    }

    func access(for client: ClientIdentifier) async throws(StorageError) -> ClientAccess {
        try executor.readAccess { db in try Self.access(for: client, in: db) }
    }

    func orderTypeAccess(
        of client: ClientIdentifier, to orderTypeIdentifier: String
    ) async throws(StorageError) -> OrderTypeAccess {
        try executor.readAccess(singleStatement: true) { db in
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT (SELECT since FROM restrictions WHERE dataType = ?),
                          EXISTS (SELECT 1 FROM clientOrderTypes WHERE client = ? AND orderTypeIdentifier = ?)
                        """), arguments: [DataType.orders.rawValue, client.rawValue, orderTypeIdentifier])
            // A type with U+0000 would be compared only up to it; no stored type holds one.
            return OrderTypeAccess(
                restrictedSince: (row?[0] as Int64?).map(Microseconds.date),
                isEntitled: StorableText.isExact(orderTypeIdentifier) && row?[1] ?? false)
        }
    }

    func clients() async throws(StorageError) -> [ClientAccess] {
        try executor.readAccess { db in
            let names = try String.fetchAll(
                db,
                sql:
                    "SELECT client FROM clients UNION SELECT client FROM clientOrderTypes UNION SELECT client FROM clientAccounts ORDER BY 1"
            )
            return try names.map { try Self.access(for: ClientIdentifier(stringLiteral: $0), in: db) }
        }
    }

    func recordDecision(
        _ decision: AuthorizationDecision, for client: ClientIdentifier, at time: Date
    ) async throws(StorageError) -> ClientAccess {
        try await executor.writeAccess { db in
            let current = try Self.access(for: client, in: db)
            guard current.status == .notDetermined else { return current }
            switch decision {
            case .authorized(let accounts):
                try Self.setStatus(.authorized, for: client, at: time, in: db)
                try self.share(accounts, with: client, before: current, at: time, in: db)
            case .denied:
                try Self.setStatus(.denied, for: client, at: time, in: db)
            case .dismissed:
                break
            }
            return try Self.access(for: client, in: db)
        }
    }

    func grant(_ accounts: [AccountGrant], to client: ClientIdentifier, at time: Date) async throws(StorageError) {
        try await executor.writeAccess { db in
            let before = try Self.access(for: client, in: db)
            try Self.setStatus(.authorized, for: client, at: time, in: db)
            try self.share(accounts, with: client, before: before, at: time, in: db)
        }
    }

    func deny(_ client: ClientIdentifier, at time: Date) async throws(StorageError) {
        try await executor.writeAccess { db in
            try Self.setStatus(.denied, for: client, at: time, in: db)
            try db.execute(sql: "DELETE FROM clientAccounts WHERE client = ?", arguments: [client.rawValue])
        }
    }

    func revoke(_ client: ClientIdentifier, accounts: [UUID], at time: Date) async throws(StorageError) {
        try await executor.writeAccess { db in
            if accounts.isEmpty {
                try Self.setStatus(.denied, for: client, at: time, in: db)
                try db.execute(sql: "DELETE FROM clientAccounts WHERE client = ?", arguments: [client.rawValue])
                try db.execute(sql: "DELETE FROM historyCursors WHERE client = ?", arguments: [client.rawValue])
            } else {
                let before = try Self.access(for: client, in: db)
                for account in accounts {
                    try db.execute(
                        sql: "DELETE FROM clientAccounts WHERE client = ? AND accountID = ?",
                        arguments: [client.rawValue, account.uuidString])
                }
                try self.record(
                    AccountAccessChange(client: client, withdrawn: accounts.filter(before.shares), time: time), in: db)
            }
        }
    }

    func entitle(_ client: ClientIdentifier, toOrderTypes types: Set<String>) async throws(StorageError) {
        guard types.allSatisfy(StorableText.isExact) else {
            throw StorageError(reason: "an order type identifier containing U+0000 cannot be stored")
        }
        try await executor.writeAccess { db in try Self.entitle(client, toOrderTypes: types, in: db) }
    }

    /// Inside a write: the client may use orders of these types (API keys are entitled this way
    /// when they are created).
    static func entitle(_ client: ClientIdentifier, toOrderTypes types: Set<String>, in db: Database) throws {
        for type in types.sorted() {
            try db.execute(
                sql: "INSERT OR IGNORE INTO clientOrderTypes (client, orderTypeIdentifier) VALUES (?, ?)",
                arguments: [client.rawValue, type])
        }
    }

    /// The order types the client is entitled to.
    static func orderTypes(of client: ClientIdentifier, in db: Database) throws -> Set<String> {
        Set(
            try String.fetchAll(
                db.cachedStatement(sql: "SELECT orderTypeIdentifier FROM clientOrderTypes WHERE client = ?"),
                arguments: [client.rawValue]))
    }

    func removeEntitlements(_ client: ClientIdentifier, toOrderTypes types: Set<String>) async throws(StorageError) {
        try await executor.writeAccess { db in
            for type in types.sorted() {
                try db.execute(
                    sql: "DELETE FROM clientOrderTypes WHERE client = ? AND orderTypeIdentifier = ?",
                    arguments: [client.rawValue, type])
            }
        }
    }

    func createCursor(for client: ClientIdentifier, stream: String, at time: Date) async throws(StorageError) -> Int64 {
        try await executor.writeAccess { db in
            try db.execute(
                sql: "INSERT INTO historyCursors (client, stream, createdAt) VALUES (?, ?, ?)",
                arguments: [client.rawValue, stream, Microseconds.since1970(time)])
            return db.lastInsertedRowID
        }
    }

    func isCursorValid(_ id: Int64, for client: ClientIdentifier, stream: String) async throws(StorageError) -> Bool {
        try executor.readAccess { db in
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM historyCursors WHERE id = ? AND client = ? AND stream = ?"),
                arguments: [id, client.rawValue, stream]) ?? false
        }
    }

    func storeGeneration() async throws(StorageError) -> String {
        try executor.readAccess { db in try String.fetchOne(db, sql: "SELECT value FROM storeInfo WHERE key = 'generation'") ?? ""
        }
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
            return AccountGrant(accountID: id, earliestDate: (row["earliestDate"] as Int64?).map(Microseconds.date))
        }
        return ClientAccess(
            client: client, status: status, accounts: accounts, orderTypeIdentifiers: try orderTypes(of: client, in: db))
    }

    private static func setStatus(
        _ status: AuthorizationStatus, for client: ClientIdentifier, at time: Date, in db: Database
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO clients (client, status, decidedAt) VALUES (?, ?, ?)
                ON CONFLICT (client) DO UPDATE SET status = excluded.status, decidedAt = excluded.decidedAt
                """, arguments: [client.rawValue, status.rawValue, Microseconds.since1970(time)])
    }

    /// Shares the accounts and records those `before` did not share.
    private func share(
        _ accounts: [AccountGrant], with client: ClientIdentifier, before: ClientAccess, at time: Date, in db: Database
    ) throws {
        for account in accounts {
            try db.execute(
                sql: """
                    INSERT INTO clientAccounts (client, accountID, earliestDate) VALUES (?, ?, ?)
                    ON CONFLICT (client, accountID) DO UPDATE SET earliestDate = excluded.earliestDate
                    """,
                arguments: [client.rawValue, account.accountID.uuidString, account.earliestDate.map(Microseconds.since1970)])
        }
        let shared = accounts.map(\.accountID).filter { !before.shares($0) }
        try record(AccountAccessChange(client: client, shared: shared, time: time), in: db)
    }

    private func record(_ change: AccountAccessChange, in db: Database) throws {
        guard !change.isEmpty else { return }
        try recordAccountChange(change, db)
    }
}
