import Foundation
import OrderStorage
import WalletCore
import WalletPrimitives

/// ``OrderStorage/TrackingRepository`` for every SQL backend (tables: ``TrackingTables``).
package final class SQLTrackingRepository: TrackingRepository {
    private let executor: any SQLExecutor

    package init(executor: any SQLExecutor) {
        self.executor = executor
    }

    private static let endpointColumns = "identifier, provider, orderTypeIdentifiers, secrets, createdAt"
    private static let eventColumns = """
        endpoint, eventID, provider, trackingKey, orderTypeIdentifier, occurredAt, receivedAt, event, outcome, versions, \
        checkedAt
        """

    package func add(_ endpoint: TrackingEndpoint) async throws(StorageError) {
        let texts = [endpoint.identifier, endpoint.provider] + endpoint.orderTypeIdentifiers + endpoint.secrets
        guard texts.allSatisfy(StorableText.isExact),
            !(endpoint.orderTypeIdentifiers + endpoint.secrets).contains(where: { $0.contains(where: \.isNewline) })
        else { throw StorageError(reason: "a tracking endpoint's text cannot contain U+0000 or a line break") }
        try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.execute(
                    "INSERT INTO trackingEndpoints (\(Self.endpointColumns)) VALUES ($1, $2, $3, $4, $5)",
                    [
                        .text(endpoint.identifier), .text(endpoint.provider),
                        .text(endpoint.orderTypeIdentifiers.joined(separator: "\n")),
                        .text(endpoint.secrets.joined(separator: "\n")), .instant(endpoint.createdAt),
                    ])
            }
        }
    }

    package func endpoint(identifier: String) async throws(StorageError) -> TrackingEndpoint? {
        guard StorableText.isExact(identifier) else { return nil }
        return try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.fetchOne(
                    "SELECT \(Self.endpointColumns) FROM trackingEndpoints WHERE identifier = $1", [.text(identifier)],
                    Self.endpoint)
            }
        }
    }

    package func endpoints() async throws(StorageError) -> [TrackingEndpoint] {
        try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.fetch(
                    "SELECT \(Self.endpointColumns) FROM trackingEndpoints ORDER BY createdAt, identifier", [], Self.endpoint)
            }
        }
    }

    package func setSecrets(_ secrets: [String], of identifier: String) async throws(StorageError) -> Bool {
        guard StorableText.isExact(identifier) else { return false }
        guard secrets.allSatisfy({ StorableText.isExact($0) && !$0.contains(where: \.isNewline) }) else {
            throw StorageError(reason: "a secret cannot contain U+0000 or a line break")
        }
        return try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.returnsRow(
                    "UPDATE trackingEndpoints SET secrets = $2 WHERE identifier = $1 RETURNING 1",
                    [.text(identifier), .text(secrets.joined(separator: "\n"))])
            }
        }
    }

    package func remove(endpoint identifier: String) async throws(StorageError) -> Bool {
        guard StorableText.isExact(identifier) else { return false }
        return try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.execute("DELETE FROM trackingEvents WHERE endpoint = $1", [.text(identifier)])
                return try await connection.returnsRow(
                    "DELETE FROM trackingEndpoints WHERE identifier = $1 RETURNING 1", [.text(identifier)])
            }
        }
    }

    package func record(_ event: TrackingEventRecord, keep: Int) async throws(StorageError) -> TrackingEventRecord? {
        let texts = [event.endpoint, event.eventID, event.provider, event.trackingKey] + [event.orderTypeIdentifier ?? ""]
        guard texts.allSatisfy(StorableText.isExact) else {
            throw StorageError(reason: "a tracking event's text cannot contain U+0000")
        }
        let arguments: [SQLValue] = [
            .text(event.endpoint), .text(event.eventID), .text(event.provider), .text(event.trackingKey),
            .text(event.orderTypeIdentifier), .instant(event.occurredAt), .instant(event.receivedAt), .blob(event.event),
            .text(TrackingOutcome.received.rawValue), .integer(0), .instant(event.receivedAt),
        ]
        return try await reportingStorageErrors {
            try await executor.write { connection in
                let inserted = try await connection.returnsRow(
                    """
                    INSERT INTO trackingEvents (\(Self.eventColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                    ON CONFLICT DO NOTHING RETURNING 1
                    """, arguments)
                guard inserted else {
                    return try await connection.fetchOne(
                        "SELECT \(Self.eventColumns) FROM trackingEvents WHERE endpoint = $1 AND eventID = $2",
                        [.text(event.endpoint), .text(event.eventID)], Self.event)
                }
                // The endpoint's oldest events beyond `keep` go: a stranger who can sign bodies
                // (a leaked secret) fills a bounded table.
                try await connection.execute(
                    """
                    DELETE FROM trackingEvents WHERE endpoint = $1 AND receivedAt < (
                        SELECT receivedAt FROM trackingEvents WHERE endpoint = $1
                        ORDER BY receivedAt DESC LIMIT 1 OFFSET $2)
                    """, [.text(event.endpoint), .integer(Int64(max(1, keep)))])
                return nil
            }
        }
    }

    package func finish(
        endpoint: String, eventID: String, outcome: TrackingOutcome, versions: Int, checkedThrough: Int64
    ) async throws(StorageError) {
        guard StorableText.isExact(endpoint), StorableText.isExact(eventID) else { return }
        try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.execute(
                    """
                    UPDATE trackingEvents SET outcome = $3, versions = versions + $4, checkedThrough = $5
                    WHERE endpoint = $1 AND eventID = $2
                    """,
                    [
                        .text(endpoint), .text(eventID), .text(outcome.rawValue), .integer(Int64(versions)),
                        .integer(checkedThrough),
                    ])
            }
        }
    }

    package func postpone(endpoint: String, eventID: String, at time: Date) async throws(StorageError) {
        guard StorableText.isExact(endpoint), StorableText.isExact(eventID) else { return }
        try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.execute(
                    "UPDATE trackingEvents SET checkedAt = $3 WHERE endpoint = $1 AND eventID = $2",
                    [.text(endpoint), .text(eventID), .instant(time)])
            }
        }
    }

    package func changeSequence() async throws(StorageError) -> Int64 {
        try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.integer("SELECT value FROM orderChangeSequence WHERE id = 1") ?? 0
            }
        }
    }

    package func orders(trackingKey: String) async throws(StorageError) -> [FullyQualifiedOrderIdentifier] {
        guard StorableText.isExact(trackingKey) else { return [] }
        return try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.fetch(
                    """
                    SELECT orderTypeIdentifier, orderIdentifier FROM trackingNumbers WHERE trackingKey = $1
                    ORDER BY orderTypeIdentifier, orderIdentifier
                    """, [.text(trackingKey)]
                ) { row in
                    FullyQualifiedOrderIdentifier(orderTypeIdentifier: try row.text(0), orderIdentifier: try row.text(1))
                }
            }
        }
    }

    package func lastAppliedAt(
        _ identifier: FullyQualifiedOrderIdentifier, trackingKey: String
    ) async throws(StorageError) -> Date? {
        guard StorableText.isExact(identifier), StorableText.isExact(trackingKey) else { return nil }
        return try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.integer(
                    """
                    SELECT max(occurredAt) FROM trackingApplications
                    WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2 AND trackingKey = $3
                    """, OrderColumns.key(identifier) + [.text(trackingKey)]
                ).map(Microseconds.date)
            }
        }
    }

    package func appliedEvents(
        of identifier: FullyQualifiedOrderIdentifier
    ) async throws(StorageError) -> [AppliedTrackingEvent] {
        guard StorableText.isExact(identifier) else { return [] }
        return try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.fetch(
                    """
                    SELECT endpoint, eventID, provider, trackingKey, occurredAt, receivedAt, archiveSHA256
                    FROM trackingApplications WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2
                    ORDER BY receivedAt, eventID
                    """, OrderColumns.key(identifier)
                ) { row in
                    AppliedTrackingEvent(
                        endpoint: try row.text(0), eventID: try row.text(1), provider: try row.text(2),
                        trackingKey: try row.text(3), occurredAt: Microseconds.date(try row.integer(4)),
                        receivedAt: Microseconds.date(try row.integer(5)), archiveSHA256: try row.text(6))
                }
            }
        }
    }

    package func eventsToApply(leftBefore: Date, limit: Int) async throws(StorageError) -> [TrackingEventRecord] {
        try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.fetch(
                    """
                    SELECT \(Self.qualifiedEventColumns) FROM trackingEvents e
                    WHERE (e.outcome = 'unmatched' AND EXISTS (
                        SELECT 1 FROM trackingNumbers n WHERE n.trackingKey = e.trackingKey AND n.changeSequence > e.checkedThrough))
                    OR (e.outcome = 'received' AND e.checkedAt < $2)
                    ORDER BY e.receivedAt, e.endpoint, e.eventID LIMIT $1
                    """, [.integer(Int64(max(0, limit))), .instant(leftBefore)], Self.event)
            }
        }
    }

    package func events(trackingKeys: [String], limit: Int) async throws(StorageError) -> [TrackingEventRecord] {
        let keys = trackingKeys.filter(StorableText.isExact)
        guard !keys.isEmpty else { return [] }
        // An order names a few parcels: one placeholder each, the statement not kept.
        let sql = """
            SELECT \(Self.eventColumns) FROM trackingEvents WHERE trackingKey IN (\(SQLPlaceholders.list(2...(keys.count + 1))))
            ORDER BY receivedAt DESC, endpoint, eventID LIMIT $1
            """
        return try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.fetch(
                    sql, [.integer(Int64(max(0, limit)))] + keys.map(SQLValue.text), reusable: false, Self.event)
            }
        }
    }

    package func events(unmatched: Bool, limit: Int) async throws(StorageError) -> [TrackingEventRecord] {
        let filter = unmatched ? "WHERE outcome = 'unmatched'" : ""
        return try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.fetch(
                    """
                    SELECT \(Self.eventColumns) FROM trackingEvents \(filter)
                    ORDER BY receivedAt DESC, endpoint, eventID LIMIT $1
                    """, [.integer(Int64(max(0, limit)))], Self.event)
            }
        }
    }

    package func expire(unmatchedBefore: Date, before: Date) async throws(StorageError) -> Int {
        try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.count(
                    """
                    DELETE FROM trackingEvents WHERE (outcome = 'unmatched' AND receivedAt < $1) OR receivedAt < $2
                    RETURNING 1
                    """, [.instant(unmatchedBefore), .instant(before)])
            }
        }
    }

    /// Keeps `event` with the version `candidate` saves, in its unit of work: the event's second
    /// version of the same order fails the unit (nothing saved).
    static func keep(
        _ event: AppliedTrackingEvent, madeBy candidate: OrderCandidate, on connection: any SQLConnection
    )
        async throws
    {
        guard [event.endpoint, event.eventID, event.provider, event.trackingKey].allSatisfy(StorableText.isExact) else {
            throw StorageError(reason: "a tracking event's text cannot contain U+0000")
        }
        let kept = try await connection.returnsRow(
            """
            INSERT INTO trackingApplications (orderTypeIdentifier, orderIdentifier, endpoint, eventID, provider, trackingKey,
                occurredAt, receivedAt, archiveSHA256)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING 1
            """,
            OrderColumns.key(candidate.identifier) + [
                .text(event.endpoint), .text(event.eventID), .text(event.provider), .text(event.trackingKey),
                .instant(event.occurredAt), .instant(event.receivedAt), .text(candidate.archiveSHA256),
            ])
        guard kept else { throw OrderStoreError.eventAlreadyApplied(eventID: event.eventID) }
    }

    private static let qualifiedEventColumns = eventColumns.split(separator: ",").map {
        "e." + $0.trimmingCharacters(in: .whitespacesAndNewlines)
    }.joined(separator: ", ")

    private static func endpoint(_ row: any SQLRow) throws -> TrackingEndpoint {
        TrackingEndpoint(
            identifier: try row.text(0), provider: try row.text(1),
            orderTypeIdentifiers: try row.text(2).split(separator: "\n").map(String.init),
            secrets: try row.text(3).split(separator: "\n").map(String.init), createdAt: Microseconds.date(try row.integer(4)))
    }

    private static func event(_ row: any SQLRow) throws -> TrackingEventRecord {
        TrackingEventRecord(
            endpoint: try row.text(0), eventID: try row.text(1), provider: try row.text(2), trackingKey: try row.text(3),
            orderTypeIdentifier: try row.optionalText(4), occurredAt: Microseconds.date(try row.integer(5)),
            receivedAt: Microseconds.date(try row.integer(6)), event: try row.bytes(7),
            outcome: TrackingOutcome(rawValue: try row.text(8)) ?? .received, versions: Int(try row.integer(9)))
        // checkedAt (10) is the sweep's alone.
    }
}
