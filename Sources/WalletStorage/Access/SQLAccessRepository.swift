import Foundation
import WalletCore
import WalletPrimitives

/// ``WalletCore/AccessRepository`` for every SQL backend. Decisions that depend on what is stored
/// are one conditional statement each (a first answer to the prompt), so two processes answering
/// at once agree on which answer counts; what a revocation withdrew is what it deleted.
package final class SQLAccessRepository: AccessRepository {
    /// Records what a write shared or withdrew, in that write's unit of work (the finance change
    /// log, for clients' account history), so the two never disagree.
    package typealias AccountChangeRecorder = @Sendable (AccountAccessChange, any SQLConnection) async throws -> Void

    private let executor: any SQLExecutor
    private let recordAccountChange: AccountChangeRecorder

    /// `recordAccountChange` is called inside every write that shares or withdraws accounts;
    /// tests replace it to prove the two commit together.
    package init(executor: any SQLExecutor, recordAccountChange: AccountChangeRecorder? = nil) {
        self.executor = executor
        let log = FinanceChangeLog(dialect: executor.dialect)
        self.recordAccountChange = recordAccountChange ?? { change, connection in try await log.record(change, on: connection) }
    }

    package func restriction(of type: DataType) async throws(StorageError) -> Date? {
        try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.integer("SELECT since FROM restrictions WHERE dataType = $1", [.text(type.rawValue)])
                    .map(Microseconds.date)
            }
        }
    }

    package func setRestricted(_ type: DataType, _ restricted: Bool, at time: Date) async throws(StorageError) {
        try await reportingStorageErrors {
            try await executor.write { connection in
                if restricted {
                    try await connection.execute(
                        "INSERT INTO restrictions (dataType, since) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                        [.text(type.rawValue), .instant(time)])
                } else {
                    try await connection.execute("DELETE FROM restrictions WHERE dataType = $1", [.text(type.rawValue)])
                }
            }
        }
    }

    package func access(for client: ClientIdentifier) async throws(StorageError) -> ClientAccess {
        guard StorableText.isExact(client.rawValue) else { return ClientAccess(client: client, status: .notDetermined) }
        return try await reportingStorageErrors {
            try await executor.read { connection in try await Self.access(for: client, on: connection) }
        }
    }

    package func orderTypeAccess(
        of client: ClientIdentifier, to orderTypeIdentifier: String
    ) async throws(StorageError) -> OrderTypeAccess {
        let exact = StorableText.isExact(client.rawValue) && StorableText.isExact(orderTypeIdentifier)
        return try await reportingStorageErrors {
            try await executor.read { connection in
                let row = try await connection.fetchOne(
                    """
                    SELECT (SELECT since FROM restrictions WHERE dataType = $1),
                      EXISTS (SELECT 1 FROM clientOrderTypes WHERE client = $2 AND orderTypeIdentifier = $3)
                    """,
                    [
                        .text(DataType.orders.rawValue), .text(exact ? client.rawValue : ""),
                        .text(exact ? orderTypeIdentifier : ""),
                    ]
                ) { row in (try row.optionalInteger(0), try row.bool(1)) }
                return OrderTypeAccess(
                    restrictedSince: row?.0.map(Microseconds.date), isEntitled: exact && row?.1 ?? false)
            }
        }
    }

    package func clients() async throws(StorageError) -> [ClientAccess] {
        try await reportingStorageErrors {
            try await executor.read { connection in
                // One statement, one snapshot: every client's status, accounts and order types.
                let parts = try await connection.fetch(
                    """
                    SELECT client, 0, status, CAST(NULL AS BIGINT) FROM clients
                    UNION ALL SELECT client, 1, accountID, earliestDate FROM clientAccounts
                    UNION ALL SELECT client, 2, orderTypeIdentifier, CAST(NULL AS BIGINT) FROM clientOrderTypes
                    ORDER BY 1, 2, 3
                    """, [], AccessPart.init)
                var clients: [ClientAccess] = []
                for part in parts {
                    if clients.last?.client.rawValue != part.client {
                        clients.append(ClientAccess(client: ClientIdentifier(stringLiteral: part.client), status: .notDetermined))
                    }
                    part.apply(to: &clients[clients.count - 1])
                }
                return clients
            }
        }
    }

    package func recordDecision(
        _ decision: AuthorizationDecision, for client: ClientIdentifier, at time: Date
    ) async throws(StorageError) -> ClientAccess {
        try Self.requireExact(client)
        let record = recordAccountChange
        return try await reportingStorageErrors {
            try await writeAccess { connection in
                let status: AuthorizationStatus
                switch decision {
                case .authorized: status = .authorized
                case .denied: status = .denied
                case .dismissed: return try await Self.access(for: client, on: connection)
                }
                // Only the first answer counts: the row is written when there is none or it is
                // still notDetermined, atomically (a concurrent answer waits, then re-checks).
                let decided = try await connection.returnsRow(
                    """
                    INSERT INTO clients (client, status, decidedAt) VALUES ($1, $2, $3)
                    ON CONFLICT (client) DO UPDATE SET status = excluded.status, decidedAt = excluded.decidedAt
                    WHERE clients.status = 'notDetermined' RETURNING 1
                    """, [.text(client.rawValue), .text(status.rawValue), .instant(time)])
                if decided, case .authorized(let accounts) = decision {
                    let before = ClientAccess(client: client, status: .notDetermined)
                    try await Self.share(accounts, with: client, before: before, at: time, on: connection, record: record)
                }
                return try await Self.access(for: client, on: connection)
            }
        }
    }

    package func grant(_ accounts: [AccountGrant], to client: ClientIdentifier, at time: Date) async throws(StorageError) {
        try Self.requireExact(client)
        let record = recordAccountChange
        let dialect = executor.dialect
        try await reportingStorageErrors {
            try await writeAccess { connection in
                // Holds the client's row until the unit ends, so that what the grant reads as
                // shared before it is still so when it records what it shared.
                if dialect.locksRows {
                    try await connection.execute(
                        "INSERT INTO clients (client, status, decidedAt) VALUES ($1, 'notDetermined', NULL) ON CONFLICT DO NOTHING",
                        [.text(client.rawValue)])
                    try await connection.execute(
                        "SELECT 1 FROM clients WHERE client = $1 \(dialect.lockingRead)", [.text(client.rawValue)])
                }
                let before = try await Self.access(for: client, on: connection)
                try await Self.setStatus(.authorized, for: client, at: time, on: connection)
                try await Self.share(accounts, with: client, before: before, at: time, on: connection, record: record)
            }
        }
    }

    package func deny(_ client: ClientIdentifier, at time: Date) async throws(StorageError) {
        try Self.requireExact(client)
        try await reportingStorageErrors {
            try await writeAccess { connection in
                try await Self.setStatus(.denied, for: client, at: time, on: connection)
                try await connection.execute("DELETE FROM clientAccounts WHERE client = $1", [.text(client.rawValue)])
                try await Self.withdrawCredentials(of: client, on: connection)
            }
        }
    }

    package func revoke(_ client: ClientIdentifier, accounts: [UUID], at time: Date) async throws(StorageError) {
        try Self.requireExact(client)
        let record = recordAccountChange
        try await reportingStorageErrors {
            try await writeAccess { connection in
                let name: [SQLValue] = [.text(client.rawValue)]
                if accounts.isEmpty {
                    try await Self.setStatus(.denied, for: client, at: time, on: connection)
                    try await connection.execute("DELETE FROM clientAccounts WHERE client = $1", name)
                    try await connection.execute("DELETE FROM historyCursors WHERE client = $1", name)
                    try await Self.withdrawCredentials(of: client, on: connection)
                    return
                }
                // What was withdrawn is what this unit deleted, whatever ran concurrently.
                var withdrawn: [UUID] = []
                for account in accounts {
                    if try await connection.returnsRow(
                        "DELETE FROM clientAccounts WHERE client = $1 AND accountID = $2 RETURNING 1",
                        name + [.text(account.uuidString)])
                    {
                        withdrawn.append(account)
                    }
                }
                let change = AccountAccessChange(client: client, withdrawn: withdrawn, time: time)
                if !change.isEmpty { try await record(change, connection) }
            }
        }
    }

    package func entitle(_ client: ClientIdentifier, toOrderTypes types: Set<String>) async throws(StorageError) {
        guard StorableText.isExact(client.rawValue), types.allSatisfy(StorableText.isExact) else {
            throw StorageError(reason: "an order type identifier containing U+0000 cannot be stored")
        }
        try await reportingStorageErrors {
            try await executor.write { connection in try await Self.entitle(client, toOrderTypes: types, on: connection) }
        }
    }

    /// Inside a unit of work: the client may use orders of these types (API keys are entitled
    /// this way when they are created). Advances the access version.
    static func entitle(
        _ client: ClientIdentifier, toOrderTypes types: Set<String>, on connection: any SQLConnection
    ) async throws {
        for type in types.sorted() {
            try await connection.execute(
                "INSERT INTO clientOrderTypes (client, orderTypeIdentifier) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                [.text(client.rawValue), .text(type)])
        }
        try await advanceVersion(on: connection)
    }

    package func removeEntitlements(_ client: ClientIdentifier, toOrderTypes types: Set<String>) async throws(StorageError) {
        let types = types.filter(StorableText.isExact)
        guard StorableText.isExact(client.rawValue), !types.isEmpty else { return }
        try await reportingStorageErrors {
            try await writeAccess { connection in
                for type in types.sorted() {
                    try await connection.execute(
                        "DELETE FROM clientOrderTypes WHERE client = $1 AND orderTypeIdentifier = $2",
                        [.text(client.rawValue), .text(type)])
                }
            }
        }
    }

    package func createCursor(for client: ClientIdentifier, stream: String, at time: Date) async throws(StorageError) -> Int64 {
        guard StorableText.isExact(client.rawValue), StorableText.isExact(stream) else {
            throw StorageError(reason: "a client or stream name containing U+0000 cannot be stored")
        }
        return try await reportingStorageErrors {
            try await executor.write { connection in
                guard
                    let id = try await connection.integer(
                        "INSERT INTO historyCursors (client, stream, createdAt) VALUES ($1, $2, $3) RETURNING id",
                        [.text(client.rawValue), .text(stream), .instant(time)])
                else { throw StorageError(reason: "the database returned no cursor id") }
                return id
            }
        }
    }

    package func isCursorValid(_ id: Int64, for client: ClientIdentifier, stream: String) async throws(StorageError) -> Bool {
        guard StorableText.isExact(client.rawValue), StorableText.isExact(stream) else { return false }
        return try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.returnsRow(
                    "SELECT 1 FROM historyCursors WHERE id = $1 AND client = $2 AND stream = $3",
                    [.integer(id), .text(client.rawValue), .text(stream)])
            }
        }
    }

    package func storeGeneration() async throws(StorageError) -> String {
        try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.text("SELECT value FROM storeInfo WHERE key = 'generation'") ?? ""
            }
        }
    }

    // MARK: - Helpers

    /// Runs a write of access — clients' status, accounts or order types — and advances the
    /// access version in the same unit of work, last: after any row the write holds, so two
    /// writers never wait for each other in opposite orders.
    private func writeAccess<T: Sendable>(_ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await executor.write { connection in
            let result = try await body(connection)
            try await Self.advanceVersion(on: connection)
            return result
        }
    }

    /// The access version: every unit of work that writes a client's status, accounts or order
    /// types (``advanceVersion(on:)``) increases it before it commits, so access read after
    /// the version was read is at least that recent, and the same version read later means
    /// nothing about access changed in between (the planning pass's cache).
    package static func version(on connection: any SQLConnection) async throws -> Int64 {
        try await connection.integer("SELECT version FROM accessVersion WHERE id = 1") ?? 0
    }

    /// Increases the access version, inside a unit of work that writes access.
    package static func advanceVersion(on connection: any SQLConnection) async throws {
        try await connection.execute("UPDATE accessVersion SET version = version + 1 WHERE id = 1")
    }

    private static func requireExact(_ client: ClientIdentifier) throws(StorageError) {
        guard StorableText.isExact(client.rawValue) else {
            throw StorageError(reason: "a client identifier containing U+0000 cannot be stored")
        }
    }

    /// A client denied or revoked keeps no way in: its access and refresh tokens, its unused
    /// codes, and its background-delivery endpoints with the deliveries not yet sent go in the
    /// same unit as the decision.
    private static func withdrawCredentials(of client: ClientIdentifier, on connection: any SQLConnection) async throws {
        try await connection.execute("DELETE FROM clientTokens WHERE client = $1", [.text(client.rawValue)])
        try await connection.execute("DELETE FROM authorizationCodes WHERE client = $1", [.text(client.rawValue)])
        try await SQLBackgroundDeliveryRepository.removeEndpoints(of: client, on: connection)
    }

    /// One client's access, in one statement (one snapshot).
    package static func access(for client: ClientIdentifier, on connection: any SQLConnection) async throws -> ClientAccess {
        let parts = try await connection.fetch(
            """
            SELECT client, 0, status, CAST(NULL AS BIGINT) FROM clients WHERE client = $1
            UNION ALL SELECT client, 1, accountID, earliestDate FROM clientAccounts WHERE client = $1
            UNION ALL SELECT client, 2, orderTypeIdentifier, CAST(NULL AS BIGINT) FROM clientOrderTypes WHERE client = $1
            ORDER BY 2, 3
            """, [.text(client.rawValue)], AccessPart.init)
        var access = ClientAccess(client: client, status: .notDetermined)
        for part in parts { part.apply(to: &access) }
        return access
    }

    /// Every client's access in `clients`, in one statement per 500 clients (a planning pass
    /// reads every client with an endpoint).
    package static func accesses(
        for clients: some Collection<ClientIdentifier>, on connection: any SQLConnection
    ) async throws -> [ClientIdentifier: ClientAccess] {
        var accesses: [ClientIdentifier: ClientAccess] = [:]
        for client in clients { accesses[client] = ClientAccess(client: client, status: .notDetermined) }
        let all = Array(clients)
        for first in stride(from: 0, to: all.count, by: 500) {
            let chunk = all[first..<min(first + 500, all.count)]
            let list = SQLPlaceholders.list(from: 1, count: chunk.count)
            let parts = try await connection.fetch(
                """
                SELECT client, 0, status, CAST(NULL AS BIGINT) FROM clients WHERE client IN (\(list))
                UNION ALL SELECT client, 1, accountID, earliestDate FROM clientAccounts WHERE client IN (\(list))
                UNION ALL SELECT client, 2, orderTypeIdentifier, CAST(NULL AS BIGINT) FROM clientOrderTypes WHERE client IN (\(list))
                ORDER BY 1, 2, 3
                """, chunk.map { .text($0.rawValue) }, reusable: false, AccessPart.init)
            // Rows come by client: each identifier is checked once.
            var current: ClientIdentifier?
            for part in parts {
                if current?.rawValue != part.client { current = ClientIdentifier(rawValue: part.client) }
                guard let client = current else { continue }
                part.apply(to: &accesses[client, default: ClientAccess(client: client, status: .notDetermined)])
            }
        }
        return accesses
    }

    private static func setStatus(
        _ status: AuthorizationStatus, for client: ClientIdentifier, at time: Date, on connection: any SQLConnection
    ) async throws {
        try await connection.execute(
            """
            INSERT INTO clients (client, status, decidedAt) VALUES ($1, $2, $3)
            ON CONFLICT (client) DO UPDATE SET status = excluded.status, decidedAt = excluded.decidedAt
            """, [.text(client.rawValue), .text(status.rawValue), .instant(time)])
    }

    /// Shares the accounts and records those `before` did not share.
    private static func share(
        _ accounts: [AccountGrant], with client: ClientIdentifier, before: ClientAccess, at time: Date,
        on connection: any SQLConnection, record: AccountChangeRecorder
    ) async throws {
        for account in accounts {
            try await connection.execute(
                """
                INSERT INTO clientAccounts (client, accountID, earliestDate) VALUES ($1, $2, $3)
                ON CONFLICT (client, accountID) DO UPDATE SET earliestDate = excluded.earliestDate
                """, [.text(client.rawValue), .text(account.accountID.uuidString), .instant(account.earliestDate)])
        }
        let change = AccountAccessChange(
            client: client, shared: accounts.map(\.accountID).filter { !before.shares($0) }, time: time)
        if !change.isEmpty { try await record(change, connection) }
    }
}

/// One row of a client's access as ``SQLAccessRepository`` reads it: its status (kind 0), a
/// shared account (1) or an entitled order type (2).
/// One row of the statements that read a client's access: its status (kind 0), a shared account
/// (1) or an order type (2).
struct AccessPart {
    var client: String
    var kind: Int64
    var value: String
    var date: Int64?

    init(_ row: any SQLRow) throws {
        client = try row.text(0)
        kind = try row.integer(1)
        value = try row.text(2)
        date = try row.optionalInteger(3)
    }

    func apply(to access: inout ClientAccess) {
        switch kind {
        case 0: access.status = AuthorizationStatus(rawValue: value) ?? .notDetermined
        case 1:
            // A row that is not a UUID is not an account anyone can be shown.
            if let id = UUID(uuidString: value) {
                access.accounts[id] = AccountGrant(accountID: id, earliestDate: date.map(Microseconds.date))
            }
        default: access.orderTypeIdentifiers.insert(value)
        }
    }
}
