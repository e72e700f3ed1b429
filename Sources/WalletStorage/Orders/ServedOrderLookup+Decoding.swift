import Foundation
import OrderStorage
import WalletPrimitives

extension ServedOrderLookup {
    /// The columns of the one read behind every device request, after the restriction's
    /// `since`, written once for every backend. The same work whether the order exists: missing
    /// values are replaced by placeholders of the same shape *in the statement* (bound as
    /// ``placeholders``), so the row always holds three strings of the usual lengths, decoded
    /// and parsed alike, and two flags say what was real. Otherwise decoding a stored row, and
    /// not decoding a missing one, tells a stranger by timing which orders exist — the Orders
    /// web service answers both with the same `401` (TimingEqualityTests).
    ///
    /// The placeholders are `$1`…`$3`, first in the statement, bound as ``placeholders``.
    package static func servedColumns(order alias: String, archive: Bool) -> String {
        """
        \(alias).archiveSHA256 IS NOT NULL, coalesce(\(alias).archiveSHA256, $1), \
        coalesce(\(alias).updatedAt, $2), coalesce(\(alias).authenticationToken, $3), \
        \(alias).authenticationToken IS NULL\(archive ? ", \(alias).archive" : "")
        """
    }

    /// The values bound for ``servedColumns(order:archive:)``'s placeholders.
    package static let placeholders: [SQLValue] = [
        .text(String(repeating: "0", count: 64)), .text("2026-01-15T09:30:00Z"), .text(String(repeating: "0", count: 32)),
    ]

    /// The lookup from those columns. `exists` is false also for an identifier no row can match
    /// (it holds U+0000).
    package static func decoded(
        identifier: FullyQualifiedOrderIdentifier, exists: Bool, restrictedSince: Date?, archiveSHA256: String,
        updatedAt: String, authenticationToken: String, tokenIsNull: Bool, archive: Data?
    ) throws -> ServedOrderLookup {
        let order = ServedOrder(
            identifier: identifier, archive: archive, archiveSHA256: archiveSHA256,
            updatedAt: try RFC3339Timestamp(stored: updatedAt), authenticationToken: tokenIsNull ? nil : authenticationToken)
        return ServedOrderLookup(restrictedSince: restrictedSince, candidate: order, isStored: exists)
    }
}
