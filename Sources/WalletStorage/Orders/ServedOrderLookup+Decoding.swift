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
    /// Read without the archive, the joined row is the order asked for or the one stored beside
    /// it (`$5`, `$6` name the order): its columns are copied and decoded either way, and the flag
    /// says which it is; ``decoded(identifier:exists:restrictedSince:archiveSHA256:updatedAt:authenticationToken:tokenIsNull:archive:)``
    /// then puts placeholders in place of another order's values.
    ///
    /// The placeholders are `$1`…`$3`, first in the statement, bound as ``placeholders``.
    package static func servedColumns(order alias: String, archive: Bool) -> String {
        let exists =
            archive
            ? "\(alias).archiveSHA256 IS NOT NULL"
            : "coalesce(\(alias).orderTypeIdentifier = $5 AND \(alias).orderIdentifier = $6, 1 = 0)"
        return """
            \(exists), coalesce(\(alias).archiveSHA256, $1), \
            coalesce(\(alias).updatedAt, $2), coalesce(\(alias).authenticationToken, $3), \
            \(alias).authenticationToken IS NULL\(archive ? ", \(alias).archive" : "")
            """
    }

    /// The values bound for ``servedColumns(order:archive:)``'s placeholders.
    package static let placeholders: [SQLValue] = [
        .text(placeholderDigest), .text(placeholderTime.text), .text(String(repeating: "0", count: 32)),
    ]

    /// The lookup from those columns. `exists` is false also for an identifier no row can match
    /// (it holds U+0000).
    package static func decoded(
        identifier: FullyQualifiedOrderIdentifier, exists: Bool, restrictedSince: Date?, archiveSHA256: String,
        updatedAt: String, authenticationToken: String, tokenIsNull: Bool, archive: Data?
    ) throws -> ServedOrderLookup {
        let timestamp = try RFC3339Timestamp(stored: updatedAt)
        let order =
            exists
            ? ServedOrder(
                identifier: identifier, archive: archive, archiveSHA256: archiveSHA256, updatedAt: timestamp,
                authenticationToken: tokenIsNull ? nil : authenticationToken)
            : ServedOrder(
                identifier: identifier, archive: nil, archiveSHA256: placeholderDigest, updatedAt: placeholderTime,
                authenticationToken: nil)
        return ServedOrderLookup(restrictedSince: restrictedSince, candidate: order, isStored: exists)
    }

    private static let placeholderDigest = String(repeating: "0", count: 64)
    /// `2026-01-15T09:30:00Z`: a stored `updatedAt`'s shape.
    private static let placeholderTime = RFC3339Timestamp(Date(timeIntervalSince1970: 1_768_469_400))
}
