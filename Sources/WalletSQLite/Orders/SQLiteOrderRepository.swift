import Foundation
import GRDB
import OrderPackage
import OrderStorage
import WalletCore
import WalletPrimitives
import WalletStorage

/// ``OrderStorage/OrderRepository`` in the store file: `BEGIN IMMEDIATE` writes with a busy
/// timeout, so several processes may save at once.
final class SQLiteOrderRepository: OrderRepository {
    private let executor: SQLiteExecutor

    init(executor: SQLiteExecutor) {
        self.executor = executor
    }

    func save(_ candidate: OrderCandidate, at time: Date) async throws(OrderStoreError) -> OrderVersionPolicy.Decision {
        try StorableText.requireExact(candidate.identifier)
        let addedAt = Microseconds.since1970(time)
        return try await executor.writeOrders { db in try Self.save(candidate, addedAt: addedAt, in: db) }
    }

    /// All candidates in one transaction (a bulk import), each decided as ``save(_:at:)`` would.
    func save(
        contentsOf candidates: [OrderCandidate], at time: Date
    ) async throws(OrderStoreError) -> [OrderVersionPolicy.Decision] {
        for candidate in candidates { try StorableText.requireExact(candidate.identifier) }
        let addedAt = Microseconds.since1970(time)
        return try await executor.writeOrders { db in try candidates.map { try Self.save($0, addedAt: addedAt, in: db) } }
    }

    private static func save(_ candidate: OrderCandidate, addedAt: Int64, in db: Database) throws -> OrderVersionPolicy.Decision {
        let stored = try Row.fetchOne(
            db.cachedStatement(
                sql:
                    "SELECT updatedAt, teamIdentifier, archiveSHA256 FROM orders WHERE orderTypeIdentifier = ? AND orderIdentifier = ?"
            ),
            arguments: [candidate.identifier.orderTypeIdentifier, candidate.identifier.orderIdentifier]
        ).map { row in
            OrderVersionPolicy.StoredVersion(
                updatedAt: try RFC3339Timestamp(stored: row["updatedAt"]), teamIdentifier: row["teamIdentifier"],
                archiveSHA256: row["archiveSHA256"])
        }
        let decision = OrderVersionPolicy.decide(stored: stored, incoming: candidate)
        switch decision {
        case .insert:
            try db.execute(
                sql: """
                    INSERT INTO orders (\(Self.versionColumns), changeSequence)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: Self.arguments(candidate, addedAt: addedAt) + [try nextChangeSequence(db)])
        case .replace:
            try db.execute(
                sql: """
                    INSERT INTO orderVersions (\(Self.versionColumns), replacedAt)
                    SELECT \(Self.versionColumns), ? FROM orders WHERE orderTypeIdentifier = ? AND orderIdentifier = ?
                    """,
                arguments: [addedAt, candidate.identifier.orderTypeIdentifier, candidate.identifier.orderIdentifier])
            try db.execute(
                sql: """
                    UPDATE orders SET (\(Self.versionColumns), changeSequence) = (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    WHERE orderTypeIdentifier = ? AND orderIdentifier = ?
                    """,
                arguments: Self.arguments(candidate, addedAt: addedAt) + [try nextChangeSequence(db)]
                    + [candidate.identifier.orderTypeIdentifier, candidate.identifier.orderIdentifier])
            // Every device registered for the order is owed a push, committed with the version.
            try db.execute(
                sql: """
                    INSERT INTO pushOutbox (pushToken, orderTypeIdentifier, orderIdentifier, deviceIdentifier, enqueuedAt, nextAttemptAt)
                    SELECT pushToken, orderTypeIdentifier, orderIdentifier, deviceIdentifier, ?, ? FROM orderRegistrations
                    WHERE orderTypeIdentifier = ? AND orderIdentifier = ?
                    """,
                arguments: [addedAt, addedAt, candidate.identifier.orderTypeIdentifier, candidate.identifier.orderIdentifier])
        case .unchanged, .keepNewer, .conflict, .signerChanged:
            break
        }
        return decision
    }

    func currentVersion(of identifier: FullyQualifiedOrderIdentifier) async throws(OrderStoreError) -> StoredOrder? {
        guard StorableText.isExact(identifier) else { return nil }
        return try executor.readOrders(singleStatement: true) { db in
            try Row.fetchOne(
                db.cachedStatement(sql: Self.currentSQL), arguments: [identifier.orderTypeIdentifier, identifier.orderIdentifier]
            )
            .map(Self.storedOrder)
        }
    }

    func currentUpdatedAt(of identifier: FullyQualifiedOrderIdentifier) async throws(OrderStoreError) -> RFC3339Timestamp? {
        guard StorableText.isExact(identifier) else { return nil }
        return try executor.readOrders(singleStatement: true) { db in
            try String.fetchOne(
                db.cachedStatement(sql: Self.updatedAtSQL),
                arguments: [identifier.orderTypeIdentifier, identifier.orderIdentifier]
            )
            .map { try RFC3339Timestamp(stored: $0) }
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
        let arguments = conditions + [max(0, query.limit), max(0, query.offset)]
        let sql = """
            SELECT \(Self.summaryColumns), NULL AS replacedAt FROM orders \(filter)
            ORDER BY updatedAtMicroseconds DESC, orderTypeIdentifier, orderIdentifier LIMIT ? OFFSET ?
            """
        return try executor.readOrders { db in
            try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map(Self.storedOrder)
        }
    }

    func countOrders(matching query: OrderQuery) async throws(OrderStoreError) -> Int {
        guard let (filter, arguments) = Self.filter(query) else { return 0 }
        return try executor.readOrders { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM orders \(filter)"), arguments: arguments) ?? 0
        }
    }

    /// The WHERE clause of `query` (limit and offset aside); nil when nothing can match.
    private static func filter(_ query: OrderQuery) -> (String, StatementArguments)? {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let type = query.orderTypeIdentifier {
            guard StorableText.isExact(type) else { return nil }
            conditions.append("orderTypeIdentifier = ?")
            arguments += [type]
        }
        if let types = query.orderTypeIdentifiers {
            let exact = types.filter(StorableText.isExact).sorted()
            guard !exact.isEmpty else { return nil }
            conditions.append("orderTypeIdentifier IN (\(Array(repeating: "?", count: exact.count).joined(separator: ", ")))")
            arguments += StatementArguments(exact)
        }
        if let status = query.status {
            guard StorableText.isExact(status) else { return nil }
            conditions.append("status = ?")
            arguments += [status]
        }
        if let since = query.updatedSince {
            conditions.append("updatedAtMicroseconds >= ?")
            arguments += [since.microsecondsSinceEpoch]
        }
        return (conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "), arguments)
    }

    func lookUpServedOrder(
        _ identifier: FullyQualifiedOrderIdentifier, includingArchive: Bool
    ) async throws(OrderStoreError) -> ServedOrderLookup {
        let exact = StorableText.isExact(identifier)
        return try executor.readOrders(singleStatement: true) { db in
            // Always one row: the restriction and the order each joined to it (placeholders when
            // there is none). Columns by index: this is every device request's read.
            let row = try Row.fetchOne(
                db.cachedStatement(sql: includingArchive ? Self.servedWithArchiveSQL : Self.servedSQL),
                arguments: StatementArguments(
                    ServedOrderLookup.placeholders + [
                        .text(DataType.orders.rawValue), .text(identifier.orderTypeIdentifier),
                        .text(identifier.orderIdentifier),
                    ]))
            guard let row else { throw OrderStoreError.unavailable(reason: "the store answered no row") }
            return try ServedOrderLookup.decoded(
                identifier: identifier, exists: exact && row[1], restrictedSince: (row[0] as Int64?).map(Microseconds.date),
                archiveSHA256: row[2], updatedAt: row[3], authenticationToken: row[4], tokenIsNull: row[5],
                archive: includingArchive ? row[6] : nil)
        }
    }

    // Without the archive, SQLite never reads the blob's overflow pages.
    private static let servedSQL = servedSQL(archive: false)
    private static let servedWithArchiveSQL = servedSQL(archive: true)
    private static func servedSQL(archive: Bool) -> String {
        """
        SELECT r.since, \(ServedOrderLookup.servedColumns(order: "o", placeholdersFrom: "?", archive: archive))
        FROM (SELECT 1) LEFT JOIN restrictions r ON r.dataType = ?
        LEFT JOIN orders o INDEXED BY \(archive ? "sqlite_autoindex_orders_1" : "orders_served")
            ON o.orderTypeIdentifier = ? AND o.orderIdentifier = ?
        """
    }

    func history(of identifier: FullyQualifiedOrderIdentifier) async throws(OrderStoreError) -> [StoredOrder] {
        guard StorableText.isExact(identifier) else { return [] }
        return try executor.readOrders { db in
            let arguments: StatementArguments = [identifier.orderTypeIdentifier, identifier.orderIdentifier]
            let previous = try Row.fetchAll(db.cachedStatement(sql: Self.historySQL), arguments: arguments).map(Self.storedOrder)
            let current = try Row.fetchOne(db.cachedStatement(sql: Self.currentSQL), arguments: arguments).map(Self.storedOrder)
            return previous + (current.map { [$0] } ?? [])
        }
    }

    func remove(_ identifier: FullyQualifiedOrderIdentifier) async throws(OrderStoreError) -> Bool {
        guard StorableText.isExact(identifier) else { return false }
        return try await executor.writeOrders { db in
            let arguments: StatementArguments = [identifier.orderTypeIdentifier, identifier.orderIdentifier]
            // The order's registrations and the pushes owed for it go with it.
            for table in ["orderVersions", "orderRegistrations", "pushOutbox"] {
                try db.execute(
                    sql: "DELETE FROM \(table) WHERE orderTypeIdentifier = ? AND orderIdentifier = ?", arguments: arguments)
            }
            try db.execute(sql: "DELETE FROM orders WHERE orderTypeIdentifier = ? AND orderIdentifier = ?", arguments: arguments)
            let removed = db.changesCount > 0
            try FreePages.release(db)
            return removed
        }
    }

    // MARK: - Helpers

    private static let versionColumns = """
        orderTypeIdentifier, orderIdentifier, updatedAt, updatedAtMicroseconds, createdAt, status, merchantIdentifier, \
        merchantDisplayName, teamIdentifier, archiveSHA256, archive, orderJSON, addedAt, authenticationToken
        """

    /// The next value of the store-wide change sequence (see `WebServiceTables`).
    private static func nextChangeSequence(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "UPDATE orderChangeSequence SET value = value + 1 WHERE id = 1 RETURNING value")) ?? 0
    }

    private static let currentSQL = """
        SELECT \(summaryColumns), NULL AS replacedAt FROM orders WHERE orderTypeIdentifier = ? AND orderIdentifier = ?
        """

    private static let updatedAtSQL = "SELECT updatedAt FROM orders WHERE orderTypeIdentifier = ? AND orderIdentifier = ?"

    private static let historySQL = """
        SELECT \(summaryColumns), replacedAt FROM orderVersions WHERE orderTypeIdentifier = ? AND orderIdentifier = ? ORDER BY id
        """

    private static let summaryColumns = """
        orderTypeIdentifier, orderIdentifier, updatedAt, createdAt, status, merchantIdentifier, merchantDisplayName, \
        teamIdentifier, archiveSHA256, length(archive) AS archiveSize, addedAt
        """

    private static func arguments(_ candidate: OrderCandidate, addedAt: Int64) -> StatementArguments {
        [
            candidate.identifier.orderTypeIdentifier, candidate.identifier.orderIdentifier, candidate.updatedAt.text,
            candidate.updatedAt.microsecondsSinceEpoch, candidate.createdAt.text, candidate.status, candidate.merchantIdentifier,
            candidate.merchantDisplayName, candidate.teamIdentifier, candidate.archiveSHA256, candidate.archive,
            candidate.orderJSON, addedAt, candidate.authenticationToken,
        ]
    }

    private func blob(_ column: String, of identifier: FullyQualifiedOrderIdentifier) async throws(OrderStoreError) -> Data? {
        guard StorableText.isExact(identifier) else { return nil }
        return try executor.readOrders { db in
            try Data.fetchOne(
                db.cachedStatement(sql: "SELECT \(column) FROM orders WHERE orderTypeIdentifier = ? AND orderIdentifier = ?"),
                arguments: [identifier.orderTypeIdentifier, identifier.orderIdentifier])
        }
    }

    private static func storedOrder(_ row: Row) throws -> StoredOrder {
        StoredOrder(
            identifier: FullyQualifiedOrderIdentifier(
                orderTypeIdentifier: row["orderTypeIdentifier"], orderIdentifier: row["orderIdentifier"]),
            updatedAt: try RFC3339Timestamp(stored: row["updatedAt"]), createdAt: try RFC3339Timestamp(stored: row["createdAt"]),
            status: row["status"],
            merchantIdentifier: row["merchantIdentifier"], merchantDisplayName: row["merchantDisplayName"],
            teamIdentifier: row["teamIdentifier"], archiveSHA256: row["archiveSHA256"], archiveSize: row["archiveSize"],
            addedAt: Microseconds.date(row["addedAt"]), replacedAt: (row["replacedAt"] as Int64?).map(Microseconds.date))
    }

}
