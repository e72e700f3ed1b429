import FinanceData
import Foundation
import WalletCore
import WalletPrimitives

/// Appends to the change log that history streams read, with the dialect's statement
/// (``SQLDialect/appendFinanceChange``): a reader that sees record n must see every record below
/// it, which each database guarantees its own way.
package struct FinanceChangeLog: Sendable {
    let dialect: any SQLDialect

    package init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    /// The change log's last number handed out (compacted or not) and the number records up to
    /// which were compacted away, in one statement.
    package static func bounds(on connection: any SQLConnection) async throws -> (latest: Int64, compactedThrough: Int64) {
        let bounds = try await connection.fetchOne(
            """
            SELECT (SELECT max(sequence) FROM financeChanges),
              (SELECT compactedThrough FROM financeHistoryHorizon WHERE id = 1)
            """
        ) { row in (try row.optionalInteger(0) ?? 0, try row.optionalInteger(1) ?? 0) }
        let (latest, compacted) = bounds ?? (0, 0)
        return (max(latest, compacted), compacted)
    }

    /// One record: for every client (`client` nil) or for one; a deletion of a balance or
    /// transaction with the earliest of the record's dates a grant applies to.
    func record(
        _ stream: HistoryStream, _ id: UUID, _ kind: FinanceChange.Kind, client: ClientIdentifier? = nil,
        earliestDate: Date? = nil, recordedAt: Int64, on connection: any SQLConnection
    ) async throws {
        try await connection.execute(
            dialect.appendFinanceChange,
            [
                .text(stream.description), .text(id.uuidString), .text(kind.rawValue), .text(client?.rawValue),
                .integer(recordedAt), .instant(earliestDate),
            ])
    }

    /// Records, for the client alone, accounts shared (`insert`) and withdrawn (`delete`) in its
    /// account history, inside the unit of work that changes the access.
    package func record(_ change: AccountAccessChange, on connection: any SQLConnection) async throws {
        let recordedAt = Microseconds.since1970(change.time)
        let records = change.shared.map { ($0, FinanceChange.Kind.insert) } + change.withdrawn.map { ($0, .delete) }
        for (account, kind) in records {
            try await record(.accounts, account, kind, client: change.client, recordedAt: recordedAt, on: connection)
        }
    }
}
