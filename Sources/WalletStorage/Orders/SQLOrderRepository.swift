import Foundation
import OrderPackage
import OrderStorage
import WalletCore
import WalletPrimitives

/// ``OrderStorage/OrderRepository`` for every SQL backend. A save reads the stored version,
/// decides with ``OrderStorage/OrderVersionPolicy``, and writes through the dialect's
/// ``OrderVersionWrites``, which hold only if the stored version is still the one read; when it
/// is not (another process saved meanwhile) the save reads and decides again.
package final class SQLOrderRepository: OrderRepository {
    private let executor: any SQLExecutor
    private let servedSQL: String
    private let servedWithArchiveSQL: String
    /// The statements in this backend's dialect, written once per repository.
    private let summaryColumns: String
    private let currentSQL: String
    private let entitledSQL: String
    private let historySQL: String

    package init(executor: any SQLExecutor) {
        self.executor = executor
        let dialect = executor.dialect
        servedSQL = Self.servedSQL(archive: false, dialect: dialect)
        servedWithArchiveSQL = Self.servedSQL(archive: true, dialect: dialect)
        let summary = OrderColumns.summary(dialect)
        summaryColumns = summary
        currentSQL = """
            SELECT \(summary), CAST(NULL AS BIGINT) AS replacedAt FROM orders
            WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2
            """
        // Always one row: the order's summary (NULLs when there is none), then the restriction
        // and the entitlement.
        entitledSQL = """
            SELECT \(OrderColumns.summary(dialect, table: "o")), CAST(NULL AS BIGINT) AS replacedAt, r.since,
              EXISTS (SELECT 1 FROM clientOrderTypes WHERE client = $1 AND orderTypeIdentifier = $3)
            FROM (SELECT 1) AS one LEFT JOIN restrictions r ON r.dataType = $2
            LEFT JOIN orders o ON o.orderTypeIdentifier = $3 AND o.orderIdentifier = $4
            """
        // One statement: the replaced versions in order, then the current one.
        historySQL = """
            SELECT * FROM (
                SELECT \(summary), replacedAt, id AS position FROM orderVersions
                WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2
                UNION ALL
                SELECT \(summary), CAST(NULL AS BIGINT), CAST(NULL AS BIGINT) FROM orders
                WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2
            ) AS versions ORDER BY \(dialect.orderTerm("position", ascending: true, nullsFirst: false))
            """
    }

    package func save(_ candidate: OrderCandidate, at time: Date) async throws -> OrderVersionPolicy.Decision {
        try StorableText.requireExact(candidate.identifier)
        let addedAt = Microseconds.since1970(time)
        let writes = executor.dialect.orderVersionWrites
        return try await reportingFailures {
            // A receipt and an applied event are kept in the version's transaction: one unit of
            // work, not statements that each commit on their own.
            if candidate.receipt != nil || candidate.trackingEvent != nil {
                return try await executor.write { connection in
                    try await Self.save(candidate, addedAt: addedAt, writes: writes, on: connection)
                }
            }
            return try await executor.writeStatements { connection in
                try await Self.save(candidate, addedAt: addedAt, writes: writes, on: connection)
            }
        }
    }

    /// All candidates in one unit of work (a bulk import), each decided as ``save(_:at:)`` would.
    package func save(
        contentsOf candidates: [OrderCandidate], at time: Date
    ) async throws -> [OrderVersionPolicy.Decision] {
        for candidate in candidates { try StorableText.requireExact(candidate.identifier) }
        let addedAt = Microseconds.since1970(time)
        let writes = executor.dialect.orderVersionWrites
        return try await reportingFailures {
            try await executor.write { connection in
                var decisions: [OrderVersionPolicy.Decision] = []
                for candidate in candidates {
                    decisions.append(try await Self.save(candidate, addedAt: addedAt, writes: writes, on: connection))
                }
                return decisions
            }
        }
    }

    private static func save(
        _ candidate: OrderCandidate, addedAt: Int64, writes: any OrderVersionWrites, on connection: any SQLConnection
    ) async throws -> OrderVersionPolicy.Decision {
        let key = OrderColumns.key(candidate.identifier)
        // Each pass fails only because another save changed the order in between; a thousand in a
        // row is not contention but a fault.
        for _ in 0..<1000 {
            let stored = try await connection.fetchOne(
                "SELECT updatedAt, teamIdentifier, archiveSHA256 FROM orders WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2",
                key
            ) { row in
                OrderVersionPolicy.StoredVersion(
                    updatedAt: try RFC3339Timestamp(stored: row.text(0)), teamIdentifier: try row.text(1),
                    archiveSHA256: try row.text(2))
            }
            let decision = OrderVersionPolicy.decide(stored: stored, incoming: candidate)
            let version = OrderColumns.arguments(candidate, addedAt: addedAt)
            switch decision {
            case .insert:
                guard try await writes.insert(version, trackingKeys: candidate.trackingKeys, on: connection) else { continue }
            case .replace:
                guard let expected = stored?.archiveSHA256,
                    try await writes.replace(
                        version, trackingKeys: candidate.trackingKeys, expectedDigest: expected, on: connection)
                else { continue }
            case .unchanged, .keepNewer, .conflict, .signerChanged, .basisChanged:
                break
            }
            if let receipt = candidate.receipt, decision == .insert || decision == .replace {
                try await keep(receipt, on: connection)
            }
            if let event = candidate.trackingEvent, decision == .insert || decision == .replace {
                try await SQLTrackingRepository.keep(event, madeBy: candidate, on: connection)
            }
            return decision
        }
        throw StorageError(
            reason: "\(candidate.identifier.clippedDescription) changed under a thousand saves in a row; not saved")
    }

    /// Keeps `receipt` after its caller's expired ones are removed; a receipt already kept under
    /// the same key (a request that ran at the same time and committed first) fails the unit of
    /// work, so that this version is not saved either.
    private static func keep(_ receipt: RequestReceipt, on connection: any SQLConnection) async throws {
        guard StorableText.isExact(receipt.caller), StorableText.isExact(receipt.idempotencyKey) else {
            throw StorageError(reason: "an Idempotency-Key cannot contain U+0000")
        }
        try await connection.execute(
            "DELETE FROM requestReceipts WHERE caller = $1 AND createdAt < $2",
            [.text(receipt.caller), .instant(receipt.createdAt.addingTimeInterval(-RequestReceipt.lifetime))])
        let kept = try await connection.returnsRow(
            """
            INSERT INTO requestReceipts (caller, idempotencyKey, requestDigest, status, answer, createdAt)
            VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING 1
            """,
            [
                .text(receipt.caller), .text(receipt.idempotencyKey), .text(receipt.requestDigest),
                .integer(Int64(receipt.status)), .blob(receipt.answer), .instant(receipt.createdAt),
            ])
        guard kept else { throw OrderStoreError.requestAlreadyAnswered(idempotencyKey: receipt.idempotencyKey) }
    }

    package func receipt(caller: String, idempotencyKey: String, notBefore: Date) async throws -> RequestReceipt? {
        guard StorableText.isExact(caller), StorableText.isExact(idempotencyKey) else { return nil }
        return try await reportingFailures {
            try await executor.read { connection in
                try await connection.fetchOne(
                    """
                    SELECT requestDigest, status, answer, createdAt FROM requestReceipts
                    WHERE caller = $1 AND idempotencyKey = $2 AND createdAt >= $3
                    """,
                    [.text(caller), .text(idempotencyKey), .instant(notBefore)]
                ) { row in
                    RequestReceipt(
                        caller: caller, idempotencyKey: idempotencyKey, requestDigest: try row.text(0),
                        status: Int(try row.integer(1)), answer: try row.bytes(2),
                        createdAt: Microseconds.date(try row.integer(3)))
                }
            }
        }
    }

    package func currentVersion(of identifier: FullyQualifiedOrderIdentifier) async throws -> StoredOrder? {
        guard StorableText.isExact(identifier) else { return nil }
        let sql = currentSQL
        return try await reportingFailures {
            try await executor.read { connection in
                try await connection.fetchOne(sql, OrderColumns.key(identifier), OrderColumns.storedOrder)
            }
        }
    }

    package func lookUpEntitledOrder(
        _ identifier: FullyQualifiedOrderIdentifier, for client: ClientIdentifier
    ) async throws -> (access: OrderTypeAccess, order: StoredOrder?) {
        // A key or client with U+0000 cannot be bound; it matches nothing, and the restriction
        // still counts.
        let exact = StorableText.isExact(identifier) && StorableText.isExact(client.rawValue)
        let arguments: [SQLValue] =
            [.text(exact ? client.rawValue : ""), .text(DataType.orders.rawValue)]
            + (exact ? OrderColumns.key(identifier) : [.text(""), .text("")])
        let sql = entitledSQL
        return try await reportingFailures {
            try await executor.read { connection in
                let lookup = try await connection.fetchOne(sql, arguments) { row in
                    let restrictedSince = try row.optionalInteger(13).map(Microseconds.date)
                    let access = OrderTypeAccess(restrictedSince: restrictedSince, isEntitled: try exact && row.bool(14))
                    return (access, try row.optionalText(0) == nil ? nil : try OrderColumns.storedOrder(row))
                }
                guard let lookup else { throw StorageError(reason: "the store answered no row") }
                return (access: lookup.0, order: lookup.1)
            }
        }
    }

    package func currentUpdatedAt(
        of identifier: FullyQualifiedOrderIdentifier
    ) async throws -> RFC3339Timestamp? {
        guard StorableText.isExact(identifier) else { return nil }
        do {
            let text = try await executor.read { connection in
                try await connection.text(
                    "SELECT updatedAt FROM orders WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2",
                    OrderColumns.key(identifier))
            }
            return try text.map { text throws(StorageError) in try RFC3339Timestamp(stored: text) }
        } catch {
            throw error is OrderStoreError ? error : StorageError(backendFailure: error)
        }
    }

    package func archive(of identifier: FullyQualifiedOrderIdentifier) async throws -> Data? {
        try await blob("archive", of: identifier)
    }

    package func orderJSON(of identifier: FullyQualifiedOrderIdentifier) async throws -> Data? {
        try await blob("orderJSON", of: identifier)
    }

    package func orderJSON(of identifier: FullyQualifiedOrderIdentifier, archiveSHA256: String) async throws -> Data? {
        guard StorableText.isExact(identifier), StorableText.isExact(archiveSHA256) else { return nil }
        return try await reportingFailures {
            try await executor.read { connection in
                try await connection.fetchOne(
                    """
                    SELECT orderJSON FROM orders WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2 AND archiveSHA256 = $3
                    UNION ALL
                    SELECT orderJSON FROM orderVersions WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2 AND archiveSHA256 = $3
                    """, OrderColumns.key(identifier) + [.text(archiveSHA256)]
                ) { try $0.bytes(0) }
            }
        }
    }

    package func orders(matching query: OrderQuery) async throws -> [StoredOrder] {
        guard var filter = OrderFilter(query, dialect: executor.dialect) else { return [] }
        let limit = filter.bind(.integer(Int64(max(0, query.limit))))
        let offset = filter.bind(.integer(Int64(max(0, query.offset))))
        let sql = """
            SELECT \(summaryColumns), CAST(NULL AS BIGINT) AS replacedAt FROM orders \(filter.clause)
            ORDER BY updatedAtMicroseconds DESC, orderTypeIdentifier, orderIdentifier LIMIT \(limit) OFFSET \(offset)
            """
        let arguments = filter.arguments
        let reusable = filter.isReusable
        return try await reportingFailures {
            try await executor.read { connection in
                try await connection.fetch(sql, arguments, reusable: reusable, OrderColumns.storedOrder)
            }
        }
    }

    package func countOrders(matching query: OrderQuery) async throws -> Int {
        guard let filter = OrderFilter(query, dialect: executor.dialect) else { return 0 }
        let sql = "SELECT count(*) FROM orders \(filter.clause)"
        return try await reportingFailures {
            try await executor.read { connection in
                try await connection.fetch(sql, filter.arguments, reusable: filter.isReusable) { try $0.integer(0) }
                    .first.map(Int.init) ?? 0
            }
        }
    }

    package func lookUpServedOrder(
        _ identifier: FullyQualifiedOrderIdentifier, includingArchive: Bool
    ) async throws -> ServedOrderLookup {
        let exact = StorableText.isExact(identifier)
        // A key with U+0000 cannot be bound; it matches nothing, and the restriction still counts.
        let key: [SQLValue] = exact ? OrderColumns.key(identifier) : [.text(""), .text("")]
        let sql = includingArchive ? servedWithArchiveSQL : servedSQL
        return try await reportingFailures {
            try await executor.read { connection in
                // Always one row: the restriction and the order each joined to it (placeholders
                // when there is none). This is every device request's read.
                let lookup = try await connection.fetchOne(
                    sql, ServedOrderLookup.placeholders + [.text(DataType.orders.rawValue)] + key
                ) { row in
                    try ServedOrderLookup.decoded(
                        identifier: identifier, exists: exact && row.bool(1),
                        restrictedSince: try row.optionalInteger(0).map(Microseconds.date), archiveSHA256: try row.text(2),
                        updatedAt: try row.text(3), authenticationToken: try row.text(4), tokenIsNull: try row.bool(5),
                        archive: includingArchive ? try row.optionalBytes(6) : nil)
                }
                guard let lookup else { throw StorageError(reason: "the store answered no row") }
                return lookup
            }
        }
    }

    /// Without the archive (the check of a device's token), the order joined is the first stored
    /// at or after the identifier — the order itself, or the one beside it — so that both reads
    /// find an index entry and copy its columns, and the row says whether it is the one asked for
    /// (``ServedOrderLookup/servedColumns(order:archive:)``). Only an identifier after every stored
    /// one finds none. With the archive (after the token was checked) it is the order alone.
    private static func servedSQL(archive: Bool, dialect: any SQLDialect) -> String {
        let order =
            archive
            ? "orders o \(dialect.servedArchiveIndex) "
                + "ON o.orderTypeIdentifier = $5 AND o.orderIdentifier = $6"
            : dialect.servedOrderAtOrAfterKey
        return """
            SELECT r.since, \(ServedOrderLookup.servedColumns(order: "o", archive: archive))
            FROM (SELECT 1) AS one LEFT JOIN restrictions r ON r.dataType = $4
            LEFT JOIN \(order) LIMIT 1
            """
    }

    package func history(of identifier: FullyQualifiedOrderIdentifier) async throws -> [StoredOrder] {
        guard StorableText.isExact(identifier) else { return [] }
        let sql = historySQL
        return try await reportingFailures {
            try await executor.read { connection in
                try await connection.fetch(sql, OrderColumns.key(identifier), OrderColumns.storedOrder)
            }
        }
    }

    package func remove(_ identifier: FullyQualifiedOrderIdentifier) async throws -> Bool {
        guard StorableText.isExact(identifier) else { return false }
        let dialect = executor.dialect
        return try await reportingFailures {
            try await executor.write { connection in
                let key = OrderColumns.key(identifier)
                // The order's registrations and the pushes owed for it go with it — but a push
                // that versions of other orders coalesced into may announce them too: it stays.
                for table in ["orderVersions", "orderRegistrations", "trackingNumbers", "trackingApplications"] {
                    try await connection.execute(
                        "DELETE FROM \(table) WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2", key)
                }
                try await connection.execute(
                    "DELETE FROM pushOutbox WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2 AND coalesced = 0", key)
                let removed = try await connection.returnsRow(
                    "DELETE FROM orders WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2 RETURNING 1", key)
                try await dialect.didRemoveOrder(on: connection)
                return removed
            }
        }
    }

    private func blob(_ column: String, of identifier: FullyQualifiedOrderIdentifier) async throws -> Data? {
        guard StorableText.isExact(identifier) else { return nil }
        return try await reportingFailures {
            try await executor.read { connection in
                try await connection.fetchOne(
                    "SELECT \(column) FROM orders WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2",
                    OrderColumns.key(identifier)
                ) { try $0.bytes(0) }
            }
        }
    }
}
