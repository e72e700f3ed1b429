import FinanceData
import Foundation
import WalletCore
import WalletPrimitives

/// ``FinanceData/BackgroundDeliveryRepository`` for every SQL backend.
///
/// Deciding is derived from the change log, not written by the imports: each endpoint's data
/// types remember the last change-log number read for them (`scannedThrough`). A pass reads the
/// records past the lowest of those, applies ``FinanceData/DeliveryPlanner``'s rules with each
/// client's access of the moment, and writes the marks, the deliveries and the new positions in
/// one unit of work — holding the `deliveryPlanner` row where the dialect locks rows, so two
/// instances take turns and a change is decided once. An import pays nothing for deliveries;
/// a decision is as durable as the records it reads.
package final class SQLBackgroundDeliveryRepository: BackgroundDeliveryRepository {
    private let executor: any SQLExecutor
    private let accessCache = PlannerAccessCache()

    package init(executor: any SQLExecutor) {
        self.executor = executor
    }

    // MARK: - Endpoints

    package func enable(
        _ types: Set<BackgroundDataType>, frequency: UpdateFrequency, url: WebhookURL, for client: ClientIdentifier,
        secret: String, maximumEndpoints: Int, at time: Date
    ) async throws -> EnabledDelivery {
        guard !types.isEmpty else { throw BackgroundDeliveryError.noDataTypes }
        guard StorableText.isExact(client.rawValue) else {
            throw StorageError(reason: "a client identifier containing U+0000 cannot be stored")
        }
        let dialect = executor.dialect
        return try await reporting {
            try await executor.write { connection in
                let name: [SQLValue] = [.text(client.rawValue)]
                // A client's registrations take turns: the count below holds until this unit ends.
                if dialect.locksRows {
                    try await connection.execute("SELECT 1 FROM clients WHERE client = $1 \(dialect.lockingRead)", name)
                }
                var secretShown: String?
                let id: String
                if let existing = try await connection.text(
                    "SELECT id FROM deliveryEndpoints WHERE client = $1 AND url = $2", name + [.text(url.text)])
                {
                    id = existing
                    try await connection.execute(
                        "UPDATE deliveryEndpoints SET disabledAt = NULL, disabledReason = NULL WHERE id = $1", [.text(id)])
                } else {
                    let count =
                        try await connection.integer("SELECT count(*) FROM deliveryEndpoints WHERE client = $1", name) ?? 0
                    guard count < maximumEndpoints else {
                        throw BackgroundDeliveryError.tooManyEndpoints(limit: maximumEndpoints)
                    }
                    id = UUID().uuidString
                    try await connection.execute(
                        "INSERT INTO deliveryEndpoints (id, client, url, secret, createdAt) VALUES ($1, $2, $3, $4, $5)",
                        [.text(id), .text(client.rawValue), .text(url.text), .text(secret), .instant(time)])
                    secretShown = secret
                }
                // A type newly enabled hears of changes from now on, in the endpoint's window.
                let from = try await FinanceChangeLog.bounds(on: connection).latest
                let lastPlanned = try await connection.integer(
                    "SELECT max(lastPlannedAt) FROM deliveryTypes WHERE endpoint = $1", [.text(id)])
                for type in types.sorted() {
                    try await connection.execute(
                        """
                        INSERT INTO deliveryTypes (endpoint, type, frequency, scannedThrough, lastPlannedAt, notBefore)
                        VALUES ($1, $2, $3, $4, $6, $6 + $5)
                        ON CONFLICT (endpoint, type) DO UPDATE SET frequency = excluded.frequency,
                          notBefore = deliveryTypes.lastPlannedAt + $5
                        """,
                        [
                            .text(id), .text(type.rawValue), .text(frequency.rawValue), .integer(from),
                            .integer(Int64(frequency.interval * 1_000_000)), lastPlanned.map(SQLValue.integer) ?? .null,
                        ])
                }
                guard let endpoint = try await Self.endpoints(where: "WHERE e.id = $1", [.text(id)], on: connection).first else {
                    throw StorageError(reason: "the delivery endpoint just written cannot be read back")
                }
                return EnabledDelivery(endpoint: endpoint, secret: secretShown)
            }
        }
    }

    package func disable(_ types: Set<BackgroundDataType>, for client: ClientIdentifier) async throws {
        guard StorableText.isExact(client.rawValue) else { return }
        try await reporting {
            try await executor.write { connection in
                let name: [SQLValue] = [.text(client.rawValue)]
                for type in types.sorted() {
                    try await connection.execute(
                        """
                        DELETE FROM deliveryTypes
                        WHERE type = $2 AND endpoint IN (SELECT id FROM deliveryEndpoints WHERE client = $1)
                        """, name + [.text(type.rawValue)])
                }
                let typeless =
                    "SELECT e.id FROM deliveryEndpoints e WHERE e.client = $1 AND NOT EXISTS "
                    + "(SELECT 1 FROM deliveryTypes t WHERE t.endpoint = e.id)"
                try await connection.execute("DELETE FROM deliveryOutbox WHERE endpoint IN (\(typeless))", name)
                try await connection.execute("DELETE FROM deliveryEndpoints WHERE id IN (\(typeless))", name)
            }
        }
    }

    package func disableAll(for client: ClientIdentifier) async throws {
        guard StorableText.isExact(client.rawValue) else { return }
        try await reporting {
            try await executor.write { connection in try await Self.removeEndpoints(of: client, on: connection) }
        }
    }

    /// Inside a unit of work: every endpoint of the client, its types and its deliveries not yet
    /// sent. A client denied or revoked is never woken again (``SQLAccessRepository``).
    package static func removeEndpoints(of client: ClientIdentifier, on connection: any SQLConnection) async throws {
        let name: [SQLValue] = [.text(client.rawValue)]
        let endpoints = "SELECT id FROM deliveryEndpoints WHERE client = $1"
        try await connection.execute("DELETE FROM deliveryOutbox WHERE endpoint IN (\(endpoints))", name)
        try await connection.execute("DELETE FROM deliveryTypes WHERE endpoint IN (\(endpoints))", name)
        try await connection.execute("DELETE FROM deliveryEndpoints WHERE client = $1", name)
    }

    package func endpoints(for client: ClientIdentifier?) async throws -> [DeliveryEndpoint] {
        try await reporting {
            try await executor.read { connection in
                if let client {
                    try await Self.endpoints(where: "WHERE e.client = $1", [.text(client.rawValue)], on: connection)
                } else {
                    try await Self.endpoints(where: "", [], on: connection)
                }
            }
        }
    }

    package func endpoint(_ id: UUID) async throws -> DeliveryEndpoint? {
        try await reporting {
            try await executor.read { connection in
                try await Self.endpoints(where: "WHERE e.id = $1", [.text(id.uuidString)], on: connection).first
            }
        }
    }

    /// Endpoints with their types, oldest first: one statement (one snapshot).
    private static func endpoints(
        where condition: String, _ arguments: [SQLValue], on connection: any SQLConnection
    ) async throws -> [DeliveryEndpoint] {
        let rows = try await connection.fetch(
            """
            SELECT e.id, e.client, e.url, e.createdAt, e.disabledAt, e.disabledReason, e.lastDeliveryID, e.lastDeliveredAt,
              e.lastDeliveredTypes, e.lastFailureID, e.lastFailureAt, e.lastFailure,
              (SELECT count(*) FROM deliveryOutbox o WHERE o.endpoint = e.id), t.type, t.frequency
            FROM deliveryEndpoints e LEFT JOIN deliveryTypes t ON t.endpoint = e.id \(condition)
            ORDER BY e.createdAt, e.id, t.type
            """, arguments, reusable: true
        ) { row in (endpoint: try EndpointRow(row), type: try row.optionalText(13), frequency: try row.optionalText(14)) }
        var endpoints: [DeliveryEndpoint] = []
        var lastID: String?
        for row in rows {
            if lastID != row.endpoint.id {
                endpoints.append(try row.endpoint.endpoint())
                lastID = row.endpoint.id
            }
            if let typeText = row.type, let frequencyText = row.frequency {
                guard let type = BackgroundDataType(rawValue: typeText) else {
                    throw FinanceRows.CorruptRow(column: 13, value: typeText)
                }
                guard let frequency = UpdateFrequency(rawValue: frequencyText) else {
                    throw FinanceRows.CorruptRow(column: 14, value: frequencyText)
                }
                endpoints[endpoints.count - 1].frequencies[type] = frequency
            }
        }
        return endpoints
    }

    // MARK: - Deciding

    package func planDeliveries(at time: Date, scanLimit: Int) async throws -> DeliveryPlanReport {
        let dialect = executor.dialect
        let accessCache = accessCache
        return try await reporting {
            // Most passes find nothing to do: they take no write lock.
            guard try await executor.read({ connection in try await Self.hasWork(at: time, on: connection) }) else {
                return DeliveryPlanReport()
            }
            return try await executor.write { connection in
                if dialect.locksRows {
                    try await connection.execute("SELECT 1 FROM deliveryPlanner WHERE id = 1 \(dialect.lockingRead)")
                }
                var pass = try await PlanningPass(at: time, on: connection)
                try await pass.scan(limit: max(1, scanLimit), access: accessCache, on: connection)
                try await pass.decide(on: connection)
                try await pass.save(on: connection)
                return pass.report
            }
        }
    }

    /// Whether a pass would read a record or decide a delivery.
    private static func hasWork(at time: Date, on connection: any SQLConnection) async throws -> Bool {
        try await connection.fetchOne(
            """
            SELECT EXISTS (
                SELECT 1 FROM deliveryTypes
                WHERE scannedThrough < (SELECT coalesce(max(sequence), 0) FROM financeChanges)
                  OR scannedThrough < (SELECT compactedThrough FROM financeHistoryHorizon WHERE id = 1))
              OR EXISTS (
                SELECT 1 FROM deliveryTypes t JOIN deliveryEndpoints e ON e.id = t.endpoint
                WHERE t.changed = 1 AND (t.notBefore IS NULL OR t.notBefore <= $1) AND e.disabledAt IS NULL
                  AND NOT EXISTS (SELECT 1 FROM deliveryOutbox o WHERE o.endpoint = t.endpoint)
                  AND NOT EXISTS (SELECT 1 FROM restrictions WHERE dataType = $2))
            """, [.instant(time), .text(DataType.financialData.rawValue)]
        ) { try $0.bool(0) } ?? false
    }

    // MARK: - The outbox

    package func claimDeliveries(dueAt time: Date, leaseEnd: Date, limit: Int) async throws -> [PendingDelivery] {
        let select = """
            SELECT deliveryID, endpoint, types, occurredAt, attempts FROM deliveryOutbox
            WHERE nextAttemptAt <= $1 ORDER BY nextAttemptAt, deliveryID LIMIT $2 \(executor.dialect.lockingReadSkippingLocked)
            """
        return try await reporting {
            try await executor.write { connection in
                let due = try await connection.fetch(select, [.instant(time), .integer(Int64(max(0, limit)))]) { row in
                    (
                        id: try row.text(0), endpoint: try row.text(1), types: try Self.types(row.text(2), column: 2),
                        occurredAt: Microseconds.date(try row.integer(3)), attempts: Int(try row.integer(4))
                    )
                }
                guard !due.isEmpty else { return [] }
                try await connection.execute(
                    "UPDATE deliveryOutbox SET nextAttemptAt = $1 WHERE deliveryID IN (\(SQLPlaceholders.list(from: 2, count: due.count)))",
                    [.instant(leaseEnd)] + due.map { .text($0.id) }, reusable: false)
                let endpoints = Set(due.map(\.endpoint)).sorted()
                let targets = try await connection.fetch(
                    """
                    SELECT id, client, url, secret FROM deliveryEndpoints
                    WHERE disabledAt IS NULL AND id IN (\(SQLPlaceholders.list(from: 1, count: endpoints.count)))
                    """, endpoints.map { .text($0) }, reusable: false
                ) { row in
                    (id: try row.text(0), client: try row.text(1), url: try Self.url(row.text(2)), secret: try row.text(3))
                }
                let byID = Dictionary(targets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                var claimed: [PendingDelivery] = []
                for delivery in due {
                    // Its endpoint was disabled or removed since it was decided: nothing to send.
                    guard let target = byID[delivery.endpoint], let id = UUID(uuidString: delivery.id),
                        let endpointID = UUID(uuidString: target.id), let client = ClientIdentifier(rawValue: target.client)
                    else {
                        try await connection.execute("DELETE FROM deliveryOutbox WHERE deliveryID = $1", [.text(delivery.id)])
                        continue
                    }
                    claimed.append(
                        PendingDelivery(
                            deliveryID: id, endpointID: endpointID, client: client, url: target.url, secret: target.secret,
                            types: delivery.types, occurredAt: delivery.occurredAt, attempts: delivery.attempts))
                }
                return claimed
            }
        }
    }

    package func recordDelivered(_ deliveryID: UUID, at time: Date) async throws {
        try await finishing(deliveryID) { connection, delivery in
            try await connection.execute(
                "UPDATE deliveryEndpoints SET lastDeliveryID = $2, lastDeliveredAt = $3, lastDeliveredTypes = $4 WHERE id = $1",
                [.text(delivery.endpoint), .text(deliveryID.uuidString), .instant(time), .text(delivery.types)])
        }
    }

    package func recordRetry(_ deliveryID: UUID, next: Date, reason: String, at time: Date) async throws {
        try await reporting {
            try await executor.write { connection in
                try await connection.execute(
                    "UPDATE deliveryOutbox SET attempts = attempts + 1, nextAttemptAt = $2, lastError = $3 WHERE deliveryID = $1",
                    [.text(deliveryID.uuidString), .instant(next), .text(Self.storable(reason))])
            }
        }
    }

    package func recordFailed(_ deliveryID: UUID, reason: String, at time: Date) async throws {
        try await finishing(deliveryID) { connection, delivery in
            try await Self.recordFailure(deliveryID, of: delivery, reason: reason, at: time, on: connection)
        }
    }

    package func recordGone(_ deliveryID: UUID, reason: String, at time: Date) async throws {
        try await finishing(deliveryID) { connection, delivery in
            try await Self.recordFailure(deliveryID, of: delivery, reason: reason, at: time, on: connection)
            try await connection.execute(
                "UPDATE deliveryEndpoints SET disabledAt = $2, disabledReason = $3 WHERE id = $1",
                [.text(delivery.endpoint), .instant(time), .text(Self.storable(reason))])
            try await connection.execute("DELETE FROM deliveryOutbox WHERE endpoint = $1", [.text(delivery.endpoint)])
        }
    }

    package func isPending(_ deliveryID: UUID) async throws -> Bool {
        try await reporting {
            try await executor.read { connection in
                try await connection.returnsRow(
                    "SELECT 1 FROM deliveryOutbox WHERE deliveryID = $1", [.text(deliveryID.uuidString)])
            }
        }
    }

    package func postpone(_ deliveryID: UUID, until time: Date) async throws {
        try await reporting {
            try await executor.write { connection in
                try await connection.execute(
                    "UPDATE deliveryOutbox SET nextAttemptAt = $2 WHERE deliveryID = $1",
                    [.text(deliveryID.uuidString), .instant(time)])
            }
        }
    }

    package func pendingDeliveryCount() async throws -> Int {
        try await reporting {
            try await executor.read { connection in Int(try await connection.integer("SELECT count(*) FROM deliveryOutbox") ?? 0)
            }
        }
    }

    /// Ends a delivery: `body` records the outcome on its endpoint, then the row goes. A delivery
    /// already gone (its client revoked meanwhile) records nothing.
    private func finishing(
        _ deliveryID: UUID,
        _ body: @escaping @Sendable (any SQLConnection, (endpoint: String, types: String)) async throws -> Void
    ) async throws {
        try await reporting {
            try await executor.write { connection in
                let id: [SQLValue] = [.text(deliveryID.uuidString)]
                guard
                    let delivery = try await connection.fetchOne(
                        "SELECT endpoint, types FROM deliveryOutbox WHERE deliveryID = $1", id,
                        { row in (endpoint: try row.text(0), types: try row.text(1)) })
                else { return }
                try await body(connection, delivery)
                try await connection.execute("DELETE FROM deliveryOutbox WHERE deliveryID = $1", id)
            }
        }
    }

    /// The endpoint's last failure, and the delivery's types owed to the next one.
    private static func recordFailure(
        _ deliveryID: UUID, of delivery: (endpoint: String, types: String), reason: String, at time: Date,
        on connection: any SQLConnection
    ) async throws {
        try await connection.execute(
            "UPDATE deliveryEndpoints SET lastFailureID = $2, lastFailureAt = $3, lastFailure = $4 WHERE id = $1",
            [.text(delivery.endpoint), .text(deliveryID.uuidString), .instant(time), .text(storable(reason))])
        for type in try types(delivery.types, column: 1) {
            try await connection.execute(
                "UPDATE deliveryTypes SET owed = 1 WHERE endpoint = $1 AND type = $2",
                [.text(delivery.endpoint), .text(type.rawValue)])
        }
    }

    // MARK: - Helpers

    /// Types as stored: raw values joined by commas.
    static func types(_ text: String, column: Int) throws -> [BackgroundDataType] {
        try text.split(separator: ",").map { name in
            guard let type = BackgroundDataType(rawValue: String(name)) else {
                throw FinanceRows.CorruptRow(column: column, value: text)
            }
            return type
        }
    }

    static func storedTypes(_ types: [BackgroundDataType]) -> String {
        types.map(\.rawValue).joined(separator: ",")
    }

    static func url(_ text: String) throws -> WebhookURL {
        do { return try WebhookURL(text) } catch { throw FinanceRows.CorruptRow(column: 2, value: text) }
    }

    /// A reason as stored: no NUL, at most 500 characters.
    static func storable(_ reason: String) -> String {
        String(reason.replacingOccurrences(of: "\u{0}", with: "").prefix(500))
    }

    /// Registration refusals pass as they are; an unreadable value is a `StorageError` saying so;
    /// anything else is the backend's failure.
    private func reporting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as BackgroundDeliveryError {
            throw error
        } catch let error as FinanceRows.CorruptRow {
            throw StorageError(reason: error.description)
        } catch {
            throw StorageError(backendFailure: error)
        }
    }
}
