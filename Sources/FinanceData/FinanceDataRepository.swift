import Foundation
import WalletCore

/// Where accounts, balances, transactions and their change log live. Every read is filtered by
/// the client's ``ClientAccess``: accounts shared, nothing before an account's earliest date.
public protocol FinanceDataRepository: Sendable {
    /// Stores a batch in one transaction, recording a change for each insert, update and delete,
    /// and, given a cutoff, compacting change records older than it (``compactHistory(before:)``).
    /// References are checked inside the transaction: nothing is stored when one fails.
    func apply(_ batch: FinanceBatch, at time: Date, compactingBefore cutoff: Date?) async throws -> FinanceImportSummary

    func accounts(_ query: AccountQuery, visibleTo access: ClientAccess) async throws -> [Account]
    func accountBalances(_ query: AccountBalanceQuery, visibleTo access: ClientAccess) async throws -> [AccountBalance]
    func transactions(_ query: TransactionQuery, visibleTo access: ClientAccess) async throws -> [Transaction]

    /// Every account, for an authorization prompt.
    func accountChoices() async throws -> [AccountChoice]

    /// The models with these ids that the client may see (for history batches).
    func accounts(ids: [UUID], visibleTo access: ClientAccess) async throws -> [Account]
    func accountBalances(ids: [UUID], visibleTo access: ClientAccess) async throws -> [AccountBalance]
    func transactions(ids: [UUID], visibleTo access: ClientAccess) async throws -> [Transaction]

    /// The last sequence written, and the last one compaction removed.
    func historyBounds() async throws -> (latest: Int64, compactedThrough: Int64)
    /// At most `limit` changes of `stream` seen by `client` with `after < sequence ≤ through`,
    /// oldest first.
    func changes(
        in stream: HistoryStream, for client: ClientIdentifier, after: Int64, through: Int64, limit: Int
    ) async throws -> [FinanceChange]

    /// A page of a stream's current state, in id order: the accounts the client may see, or one
    /// account's balances or transactions. `after` is the last id of the previous page.
    func snapshotAccounts(visibleTo access: ClientAccess, after: String, limit: Int) async throws -> [Account]
    func snapshotBalances(
        of account: UUID, visibleTo access: ClientAccess, after: String, limit: Int
    ) async throws -> [AccountBalance]
    func snapshotTransactions(
        of account: UUID, visibleTo access: ClientAccess, after: String, limit: Int
    ) async throws -> [Transaction]
    /// Removes change records older than `time`; returns how many.
    func compactHistory(before time: Date) async throws -> Int
}

extension FinanceDataRepository {
    /// Stores a batch without compacting history.
    public func apply(_ batch: FinanceBatch, at time: Date) async throws -> FinanceImportSummary {
        try await apply(batch, at: time, compactingBefore: nil)
    }
}
