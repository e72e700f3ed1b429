import FinanceData
import Foundation
import PostgresNIO
import WalletCore
import WalletPrimitives
import WalletStorage

/// Appends to the change log history streams read. Each record's `sequence` is taken from the
/// one-row `financeChangeSequence` in the statement that inserts it; the row lock that takes lasts
/// until the transaction ends, so a second writer's records get their numbers only after the
/// first writer's are committed, and a reader that sees number n sees every number below it.
enum PostgresFinanceChangeLog {
    static func record(
        _ stream: HistoryStream, _ id: UUID, _ kind: FinanceChange.Kind, client: ClientIdentifier?, recordedAt: Int64,
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            """
            WITH next AS (UPDATE financeChangeSequence SET value = value + 1 WHERE id = 1 RETURNING value)
            INSERT INTO financeChanges (sequence, stream, entityID, kind, client, recordedAt)
            SELECT value, $1, $2, $3, $4, $5 FROM next
            """,
            [
                .text(stream.description), .text(id.uuidString), .text(kind.rawValue), client.map { .text($0.rawValue) } ?? .null,
                .integer(recordedAt),
            ], logger: logger)
    }

    /// Records, for the client alone, accounts shared (`insert`) and withdrawn (`delete`) in its
    /// account history, inside the transaction that changes the access.
    static func record(_ change: AccountAccessChange, on connection: PostgresConnection, logger: Logger) async throws {
        let recordedAt = Microseconds.since1970(change.time)
        let records = change.shared.map { ($0, FinanceChange.Kind.insert) } + change.withdrawn.map { ($0, .delete) }
        for (account, kind) in records {
            try await record(
                .accounts, account, kind, client: change.client, recordedAt: recordedAt, on: connection, logger: logger)
        }
    }
}
