import Foundation
import OrderStorage
import WalletCore
import WalletPrimitives

/// ``StorageBackend/authoringBasis(of:client:receipt:now:)`` for every SQL backend: one
/// statement, one row — the order's summary and archive (NULLs when there is none), the
/// restriction of orders, the client's entitlement, the receipt kept under the request's key and
/// the type's signing identity — so that an authoring request reads once, in one snapshot.
package struct SQLAuthoringRead: Sendable {
    private let executor: any SQLExecutor
    private let sql: String

    /// Where each part of the row starts.
    private enum Column {
        static let archive = 13
        static let restrictedSince = 14
        static let entitled = 15
        static let receipt = 16
        static let identity = 20
    }

    package init(executor: any SQLExecutor) {
        self.executor = executor
        sql = """
            SELECT \(OrderColumns.summary(executor.dialect, table: "o")), CAST(NULL AS BIGINT) AS replacedAt, o.archive,
              r.since, EXISTS (SELECT 1 FROM clientOrderTypes WHERE client = $1 AND orderTypeIdentifier = $3),
              q.requestDigest, q.status, q.answer, q.createdAt,
              \(SQLSigningIdentityRepository.columns(table: "s"))
            FROM (SELECT 1) AS one LEFT JOIN restrictions r ON r.dataType = $2
            LEFT JOIN orders o ON o.orderTypeIdentifier = $3 AND o.orderIdentifier = $4
            LEFT JOIN requestReceipts q ON q.caller = $5 AND q.idempotencyKey = $6 AND q.createdAt >= $7
            LEFT JOIN signingIdentities s ON s.orderTypeIdentifier = $3
            """
    }

    package func basis(
        of identifier: FullyQualifiedOrderIdentifier, client: ClientIdentifier?, receipt: ReceiptKey?, now: Date
    ) async throws -> AuthoringBasis {
        // Text with U+0000 cannot be bound: such a key or client matches nothing (nor does such a
        // receipt key), and the restriction still counts.
        let clientName = client?.rawValue
        let exact = StorableText.isExact(identifier) && (clientName.map(StorableText.isExact) ?? true)
        let receipt = receipt.flatMap { StorableText.isExact($0.caller) && StorableText.isExact($0.idempotencyKey) ? $0 : nil }
        let arguments: [SQLValue] =
            [.text(exact ? clientName ?? "" : ""), .text(DataType.orders.rawValue)]
            + (exact ? OrderColumns.key(identifier) : [.text(""), .text("")])
            + [
                .text(receipt?.caller ?? ""), .text(receipt?.idempotencyKey ?? ""),
                .instant(now.addingTimeInterval(-RequestReceipt.lifetime)),
            ]
        let sql = sql
        return try await reportingFailures {
            try await executor.read { connection in
                let basis = try await connection.fetchOne(sql, arguments) { row in
                    // No client: the operator, entitled to every type.
                    let access = OrderTypeAccess(
                        restrictedSince: try row.optionalInteger(Column.restrictedSince).map(Microseconds.date),
                        isEntitled: try clientName == nil || (exact && row.bool(Column.entitled)))
                    let current =
                        try row.optionalText(0) == nil
                        ? nil
                        : AuthoringBasis.CurrentVersion(
                            order: try OrderColumns.storedOrder(row), archive: try row.bytes(Column.archive))
                    var kept: RequestReceipt?
                    if let receipt, let digest = try row.optionalText(Column.receipt) {
                        kept = RequestReceipt(
                            caller: receipt.caller, idempotencyKey: receipt.idempotencyKey, requestDigest: digest,
                            status: Int(try row.integer(Column.receipt + 1)), answer: try row.bytes(Column.receipt + 2),
                            createdAt: Microseconds.date(try row.integer(Column.receipt + 3)))
                    }
                    let identity =
                        try row.optionalText(Column.identity) == nil
                        ? nil : try SQLSigningIdentityRepository.decode(OffsetRow(base: row, offset: Column.identity))
                    return AuthoringBasis(access: access, current: current, receipt: kept, identity: identity)
                }
                guard let basis else { throw StorageError(reason: "the store answered no row") }
                return basis
            }
        }
    }
}

/// The columns of a row from `offset` on, read as a row of their own.
struct OffsetRow: SQLRow {
    let base: any SQLRow
    let offset: Int

    func text(_ index: Int) throws -> String { try base.text(offset + index) }
    func optionalText(_ index: Int) throws -> String? { try base.optionalText(offset + index) }
    func integer(_ index: Int) throws -> Int64 { try base.integer(offset + index) }
    func optionalInteger(_ index: Int) throws -> Int64? { try base.optionalInteger(offset + index) }
    func bytes(_ index: Int) throws -> Data { try base.bytes(offset + index) }
    func optionalBytes(_ index: Int) throws -> Data? { try base.optionalBytes(offset + index) }
    func bool(_ index: Int) throws -> Bool { try base.bool(offset + index) }
}
