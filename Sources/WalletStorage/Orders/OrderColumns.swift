import Foundation
import OrderStorage
import WalletPrimitives

/// The columns of an order version and of its summary, and their values, for every backend.
package enum OrderColumns {
    /// What a version stores, in the order of ``arguments(_:addedAt:)``.
    package static let version = """
        orderTypeIdentifier, orderIdentifier, updatedAt, updatedAtMicroseconds, createdAt, status, merchantIdentifier, \
        merchantDisplayName, teamIdentifier, archiveSHA256, archive, orderJSON, addedAt, authenticationToken, uploadedBy
        """

    /// How many columns ``version`` names: its values are `$1`…`$count`.
    package static let count = 15

    /// The values of ``version`` for a candidate saved at `addedAt`.
    package static func arguments(_ candidate: OrderCandidate, addedAt: Int64) -> [SQLValue] {
        [
            .text(candidate.identifier.orderTypeIdentifier), .text(candidate.identifier.orderIdentifier),
            .text(candidate.updatedAt.text), .integer(candidate.updatedAt.microsecondsSinceEpoch),
            .text(candidate.createdAt.text), .text(candidate.status), .text(candidate.merchantIdentifier),
            .text(candidate.merchantDisplayName), .text(candidate.teamIdentifier), .text(candidate.archiveSHA256),
            .blob(candidate.archive), .blob(candidate.orderJSON), .integer(addedAt), .text(candidate.authenticationToken),
            .text(candidate.uploadedBy),
        ]
    }

    /// The key of an order: `$1` type, `$2` identifier.
    package static func key(_ identifier: FullyQualifiedOrderIdentifier) -> [SQLValue] {
        [.text(identifier.orderTypeIdentifier), .text(identifier.orderIdentifier)]
    }

    /// What a listing shows of a version, before its `replacedAt`; each column qualified with
    /// `table` when given (a statement joining others).
    package static func summary(_ dialect: any SQLDialect, table: String? = nil) -> String {
        let t = table.map { "\($0)." } ?? ""
        return """
            \(t)orderTypeIdentifier, \(t)orderIdentifier, \(t)updatedAt, \(t)createdAt, \(t)status, \
            \(t)merchantIdentifier, \(t)merchantDisplayName, \(t)teamIdentifier, \(t)archiveSHA256, \
            CAST(\(dialect.byteLength("\(t)archive")) AS BIGINT) AS archiveSize, \(t)addedAt, \(t)uploadedBy
            """
    }

    /// A row of ``summary(_:)`` followed by `replacedAt`.
    package static func storedOrder(_ row: any SQLRow) throws -> StoredOrder {
        StoredOrder(
            identifier: FullyQualifiedOrderIdentifier(orderTypeIdentifier: try row.text(0), orderIdentifier: try row.text(1)),
            updatedAt: try RFC3339Timestamp(stored: row.text(2)), createdAt: try RFC3339Timestamp(stored: row.text(3)),
            status: try row.text(4),
            merchantIdentifier: try row.text(5), merchantDisplayName: try row.text(6), teamIdentifier: try row.text(7),
            archiveSHA256: try row.text(8), archiveSize: Int(try row.integer(9)), addedAt: Microseconds.date(try row.integer(10)),
            replacedAt: try row.optionalInteger(12).map(Microseconds.date), uploadedBy: try row.optionalText(11))
    }
}
