import Foundation
import OrderPackage
import OrderStorage
import PostgresNIO
import WalletCore
import WalletPrimitives
import WalletStorage

/// ``OrderStorage/OrderRepository`` in PostgreSQL, safe when several processes save versions of
/// one order at once. A save reads the stored version, decides with ``OrderVersionPolicy``, and
/// writes in **one statement** that holds only if the stored version is still the one it read:
/// a new order is inserted `ON CONFLICT DO NOTHING`; a replacement locks the row `FOR UPDATE`
/// where its digest is still the one read (PostgreSQL re-checks that against a concurrent
/// commit), and moves it to the history, writes the pushes owed, takes the change number and
/// updates the row, all in that statement. When the condition fails the save reads and decides
/// again. Outside a unit of work each statement is its own transaction, so the change number's
/// row lock is never held across a round trip to this process.
final class PostgresOrderRepository: OrderRepository {
    private let executor: PostgresExecutor

    init(executor: PostgresExecutor) {
        self.executor = executor
    }

    func save(_ candidate: OrderCandidate, at time: Date) async throws(OrderStoreError) -> OrderVersionPolicy.Decision {
        try StorableText.requireExact(candidate.identifier)
        let addedAt = Microseconds.since1970(time)
        return try await executor.statementsOrders { connection, logger in
            try await Self.save(candidate, addedAt: addedAt, on: connection, logger: logger)
        }
    }

    /// All candidates in one transaction (a bulk import), each decided as ``save(_:at:)`` would.
    func save(
        contentsOf candidates: [OrderCandidate], at time: Date
    ) async throws(OrderStoreError) -> [OrderVersionPolicy.Decision] {
        for candidate in candidates { try StorableText.requireExact(candidate.identifier) }
        let addedAt = Microseconds.since1970(time)
        return try await executor.writeOrders { connection, logger in
            var decisions: [OrderVersionPolicy.Decision] = []
            for candidate in candidates {
                decisions.append(try await Self.save(candidate, addedAt: addedAt, on: connection, logger: logger))
            }
            return decisions
        }
    }

    private static func save(
        _ candidate: OrderCandidate, addedAt: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws -> OrderVersionPolicy.Decision {
        let key: [SQLValue] = [.text(candidate.identifier.orderTypeIdentifier), .text(candidate.identifier.orderIdentifier)]
        // Each pass fails only because another save changed the order in between; a thousand in a
        // row is not contention but a fault.
        for _ in 0..<1000 {
            let stored = try await connection.rows(
                "SELECT updatedAt, teamIdentifier, archiveSHA256 FROM orders WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2",
                key, logger: logger
            ).first.map { row in
                OrderVersionPolicy.StoredVersion(
                    updatedAt: try RFC3339Timestamp(stored: row.text(0)), teamIdentifier: try row.text(1),
                    archiveSHA256: try row.text(2))
            }
            let decision = OrderVersionPolicy.decide(stored: stored, incoming: candidate)
            switch decision {
            case .insert:
                // The number a losing insert took is left unused: tags may skip numbers, never changes.
                if try await connection.rows(Self.insertSQL, arguments(candidate, addedAt: addedAt), logger: logger).isEmpty {
                    continue
                }
            case .replace:
                guard let expected = stored?.archiveSHA256 else { continue }
                if try await connection.rows(
                    Self.replaceSQL, arguments(candidate, addedAt: addedAt) + [.text(expected)], logger: logger
                ).isEmpty {
                    continue
                }
            case .unchanged, .keepNewer, .conflict, .signerChanged:
                break
            }
            return decision
        }
        throw OrderStoreError.unavailable(
            reason: "\(candidate.identifier.clippedDescription) changed under a thousand saves in a row; not saved")
    }

    private static let insertSQL = """
        WITH next AS (UPDATE orderChangeSequence SET value = value + 1 WHERE id = 1 RETURNING value)
        INSERT INTO orders (\(versionColumns), changeSequence)
        SELECT \(placeholders(1...14)), value FROM next
        ON CONFLICT (orderTypeIdentifier, orderIdentifier) DO NOTHING RETURNING 1
        """

    /// $1…$14: the new version (``versionColumns``), $13 its `addedAt` (the old one's
    /// `replacedAt`), $15 the digest the decision was made against. No row back: the stored
    /// version changed meanwhile, and nothing was written.
    private static let replaceSQL = """
        WITH old AS (
            SELECT id, \(versionColumns) FROM orders
            WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2 AND archiveSHA256 = $15 FOR UPDATE),
        history AS (
            INSERT INTO orderVersions (\(versionColumns), replacedAt) SELECT \(versionColumns), $13 FROM old),
        pushes AS (
            INSERT INTO pushOutbox (pushToken, orderTypeIdentifier, orderIdentifier, deviceIdentifier, enqueuedAt, nextAttemptAt)
            SELECT r.pushToken, r.orderTypeIdentifier, r.orderIdentifier, r.deviceIdentifier, $13, $13
            FROM orderRegistrations r, old WHERE r.orderTypeIdentifier = $1 AND r.orderIdentifier = $2),
        next AS (
            UPDATE orderChangeSequence SET value = value + 1 WHERE id = 1 AND EXISTS (SELECT 1 FROM old) RETURNING value)
        UPDATE orders SET (\(versionColumns), changeSequence) = (\(placeholders(1...14)), next.value)
        FROM old, next WHERE orders.id = old.id
        RETURNING 1
        """

    func currentVersion(of identifier: FullyQualifiedOrderIdentifier) async throws(OrderStoreError) -> StoredOrder? {
        guard StorableText.isExact(identifier) else { return nil }
        return try await executor.readOrders { connection, logger in
            try await connection.rows(Self.currentSQL, Self.key(identifier), logger: logger).first.map(Self.storedOrder)
        }
    }

    func currentUpdatedAt(of identifier: FullyQualifiedOrderIdentifier) async throws(OrderStoreError) -> RFC3339Timestamp? {
        guard StorableText.isExact(identifier) else { return nil }
        return try await executor.readOrders { connection, logger in
            try await connection.rows(Self.updatedAtSQL, Self.key(identifier), logger: logger).first.map {
                try RFC3339Timestamp(stored: $0.text(0))
            }
        }
    }

    func archive(of identifier: FullyQualifiedOrderIdentifier) async throws(OrderStoreError) -> Data? {
        try await blob("archive", of: identifier)
    }

    func orderJSON(of identifier: FullyQualifiedOrderIdentifier) async throws(OrderStoreError) -> Data? {
        try await blob("orderJSON", of: identifier)
    }

    func orders(matching query: OrderQuery) async throws(OrderStoreError) -> [StoredOrder] {
        guard let (filter, conditions) = Self.filter(query) else { return [] }
        let limit = conditions.count + 1
        let sql = """
            SELECT \(Self.summaryColumns), NULL::bigint AS replacedAt FROM orders \(filter)
            ORDER BY updatedAtMicroseconds DESC, orderTypeIdentifier, orderIdentifier LIMIT $\(limit) OFFSET $\(limit + 1)
            """
        let arguments = conditions + [.integer(Int64(max(0, query.limit))), .integer(Int64(max(0, query.offset)))]
        return try await executor.readOrders { connection, logger in
            try await connection.rows(sql, arguments, logger: logger).map(Self.storedOrder)
        }
    }

    func countOrders(matching query: OrderQuery) async throws(OrderStoreError) -> Int {
        guard let (filter, arguments) = Self.filter(query) else { return 0 }
        return try await executor.readOrders { connection, logger in
            Int(try await connection.value(Int64.self, "SELECT count(*) FROM orders \(filter)", arguments, logger: logger) ?? 0)
        }
    }

    /// The WHERE clause of `query` (limit and offset aside); nil when nothing can match.
    private static func filter(_ query: OrderQuery) -> (String, [SQLValue])? {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        func bind(_ value: SQLValue) -> String {
            arguments.append(value)
            return "$\(arguments.count)"
        }
        if let type = query.orderTypeIdentifier {
            guard StorableText.isExact(type) else { return nil }
            conditions.append("orderTypeIdentifier = \(bind(.text(type)))")
        }
        if let types = query.orderTypeIdentifiers {
            let exact = types.filter(StorableText.isExact).sorted()
            guard !exact.isEmpty else { return nil }
            conditions.append("orderTypeIdentifier IN (\(exact.map { bind(.text($0)) }.joined(separator: ", ")))")
        }
        if let status = query.status {
            guard StorableText.isExact(status) else { return nil }
            conditions.append("status = \(bind(.text(status)))")
        }
        if let since = query.updatedSince {
            conditions.append("updatedAtMicroseconds >= \(bind(.integer(since.microsecondsSinceEpoch)))")
        }
        return (conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "), arguments)
    }

    func lookUpServedOrder(
        _ identifier: FullyQualifiedOrderIdentifier, includingArchive: Bool
    ) async throws(OrderStoreError) -> ServedOrderLookup {
        let exact = StorableText.isExact(identifier)
        // A key with U+0000 cannot be bound; it matches nothing, and the restriction still counts.
        let key: [SQLValue] = exact ? Self.key(identifier) : [.text(""), .text("")]
        return try await executor.readOrders { connection, logger in
            let rows = try await connection.rows(
                includingArchive ? Self.servedWithArchiveSQL : Self.servedSQL,
                [.text(DataType.orders.rawValue)] + key + ServedOrderLookup.placeholders, logger: logger)
            guard let row = rows.first else { throw OrderStoreError.unavailable(reason: "the database answered no row") }
            return try ServedOrderLookup.decoded(
                identifier: identifier, exists: exact && row.bool(1),
                restrictedSince: try row.optionalInteger(0).map(Microseconds.date), archiveSHA256: try row.text(2),
                updatedAt: try row.text(3), authenticationToken: try row.text(4), tokenIsNull: try row.bool(5),
                archive: includingArchive ? try row.optionalBytes(6) : nil)
        }
    }

    private static let servedSQL = servedSQL(archive: false)
    private static let servedWithArchiveSQL = servedSQL(archive: true)
    private static func servedSQL(archive: Bool) -> String {
        """
        SELECT r.since, \(ServedOrderLookup.servedColumns(order: "o", placeholdersFrom: "$4", archive: archive))
        FROM (SELECT 1) AS one LEFT JOIN restrictions r ON r.dataType = $1
        LEFT JOIN orders o ON o.orderTypeIdentifier = $2 AND o.orderIdentifier = $3
        """
    }

    func history(of identifier: FullyQualifiedOrderIdentifier) async throws(OrderStoreError) -> [StoredOrder] {
        guard StorableText.isExact(identifier) else { return [] }
        return try await executor.readOrders { connection, logger in
            // One statement: the replaced versions in order, then the current one.
            try await connection.rows(
                """
                SELECT * FROM (
                    SELECT \(Self.summaryColumns), replacedAt, id AS position FROM orderVersions
                    WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2
                    UNION ALL
                    SELECT \(Self.summaryColumns), NULL::bigint, NULL::bigint FROM orders
                    WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2
                ) AS versions ORDER BY position ASC NULLS LAST
                """, Self.key(identifier), logger: logger
            ).map(Self.storedOrder)
        }
    }

    func remove(_ identifier: FullyQualifiedOrderIdentifier) async throws(OrderStoreError) -> Bool {
        guard StorableText.isExact(identifier) else { return false }
        return try await executor.writeOrders { connection, logger in
            let key = Self.key(identifier)
            // The order's registrations and the pushes owed for it go with it.
            for table in ["orderVersions", "orderRegistrations", "pushOutbox"] {
                try await connection.run(
                    "DELETE FROM \(table) WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2", key, logger: logger)
            }
            return try await !connection.rows(
                "DELETE FROM orders WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2 RETURNING 1", key, logger: logger
            ).isEmpty
        }
    }

    // MARK: - Helpers

    static func key(_ identifier: FullyQualifiedOrderIdentifier) -> [SQLValue] {
        [.text(identifier.orderTypeIdentifier), .text(identifier.orderIdentifier)]
    }

    private static let versionColumns = """
        orderTypeIdentifier, orderIdentifier, updatedAt, updatedAtMicroseconds, createdAt, status, merchantIdentifier, \
        merchantDisplayName, teamIdentifier, archiveSHA256, archive, orderJSON, addedAt, authenticationToken
        """

    private static func placeholders(_ positions: ClosedRange<Int>) -> String {
        positions.map { "$\($0)" }.joined(separator: ", ")
    }

    private static let updatedAtSQL = "SELECT updatedAt FROM orders WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2"

    private static let currentSQL = """
        SELECT \(summaryColumns), NULL::bigint AS replacedAt FROM orders WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2
        """

    private static let summaryColumns = """
        orderTypeIdentifier, orderIdentifier, updatedAt, createdAt, status, merchantIdentifier, merchantDisplayName, \
        teamIdentifier, archiveSHA256, octet_length(archive)::bigint AS archiveSize, addedAt
        """

    private static func arguments(_ candidate: OrderCandidate, addedAt: Int64) -> [SQLValue] {
        [
            .text(candidate.identifier.orderTypeIdentifier), .text(candidate.identifier.orderIdentifier),
            .text(candidate.updatedAt.text), .integer(candidate.updatedAt.microsecondsSinceEpoch),
            .text(candidate.createdAt.text), .text(candidate.status), .text(candidate.merchantIdentifier),
            .text(candidate.merchantDisplayName), .text(candidate.teamIdentifier), .text(candidate.archiveSHA256),
            .blob(candidate.archive), .blob(candidate.orderJSON), .integer(addedAt),
            candidate.authenticationToken.map(SQLValue.text) ?? .null,
        ]
    }

    private func blob(_ column: String, of identifier: FullyQualifiedOrderIdentifier) async throws(OrderStoreError) -> Data? {
        guard StorableText.isExact(identifier) else { return nil }
        return try await executor.readOrders { connection, logger in
            try await connection.rows(
                "SELECT \(column) FROM orders WHERE orderTypeIdentifier = $1 AND orderIdentifier = $2", Self.key(identifier),
                logger: logger
            ).first.map { try $0.bytes(0) }
        }
    }

    /// A row of ``summaryColumns`` followed by `replacedAt`.
    private static func storedOrder(_ row: PostgresRandomAccessRow) throws -> StoredOrder {
        StoredOrder(
            identifier: FullyQualifiedOrderIdentifier(orderTypeIdentifier: try row.text(0), orderIdentifier: try row.text(1)),
            updatedAt: try RFC3339Timestamp(stored: row.text(2)), createdAt: try RFC3339Timestamp(stored: row.text(3)),
            status: try row.text(4),
            merchantIdentifier: try row.text(5), merchantDisplayName: try row.text(6), teamIdentifier: try row.text(7),
            archiveSHA256: try row.text(8), archiveSize: Int(try row.integer(9)), addedAt: Microseconds.date(try row.integer(10)),
            replacedAt: try row.optionalInteger(11).map(Microseconds.date))
    }

}
