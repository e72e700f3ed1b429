import Foundation
import WalletCore

/// Data to store in one transaction: upserts, then deletions. A transaction whose status moves
/// from pending to booked keeps its id and is an update.
public struct FinanceBatch: Sendable, Hashable {
    public var accounts: [Account]
    public var balances: [AccountBalance]
    public var transactions: [Transaction]
    public var deletedAccounts: [UUID]
    public var deletedBalances: [UUID]
    public var deletedTransactions: [UUID]

    public init(
        accounts: [Account] = [], balances: [AccountBalance] = [], transactions: [Transaction] = [], deletedAccounts: [UUID] = [],
        deletedBalances: [UUID] = [], deletedTransactions: [UUID] = []
    ) {
        self.accounts = accounts
        self.balances = balances
        self.transactions = transactions
        self.deletedAccounts = deletedAccounts
        self.deletedBalances = deletedBalances
        self.deletedTransactions = deletedTransactions
    }
}

/// What applying a batch did, per kind of record.
public struct FinanceImportSummary: Sendable, Hashable, Codable {
    public struct Counts: Sendable, Hashable, Codable {
        public var inserted = 0
        public var updated = 0
        public var unchanged = 0
        public var deleted = 0
    }

    public var accounts = Counts()
    public var balances = Counts()
    public var transactions = Counts()
    /// What the feed held that was ignored (unknown keys); empty for a ``FinanceBatch``.
    public var warnings: [FinanceFeedWarning] = []

    public init() {}
}

/// A history stream (docs/financekit-semantics.md §5): one for accounts, one per account for balances and
/// for transactions.
public enum HistoryStream: Hashable, Sendable, CustomStringConvertible {
    case accounts
    case balances(accountID: UUID)
    case transactions(accountID: UUID)

    /// The name the change log and cursors use: `accounts`, `balances/<id>`, `transactions/<id>`.
    public var description: String {
        switch self {
        case .accounts: "accounts"
        case .balances(let id): "balances/\(id.uuidString)"
        case .transactions(let id): "transactions/\(id.uuidString)"
        }
    }

    /// The stream a change-log name stands for; nil for anything else.
    public init?(description: String) {
        if description == "accounts" {
            self = .accounts
            return
        }
        let parts = description.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let id = UUID(uuidString: String(parts[1])) else { return nil }
        switch parts[0] {
        case "balances": self = .balances(accountID: id)
        case "transactions": self = .transactions(accountID: id)
        default: return nil
        }
    }

    /// The account whose balances or transactions the stream carries; nil for `accounts`.
    public var accountID: UUID? {
        switch self {
        case .accounts: nil
        case .balances(let id), .transactions(let id): id
        }
    }
}

/// One entry of the change log.
public struct FinanceChange: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case insert, update, delete
    }

    public var sequence: Int64
    public var entityID: UUID
    public var kind: Kind
    /// Set when the record is one client's own (an account shared with or withdrawn from it).
    public var client: ClientIdentifier?
    /// For the deletion of a balance or transaction: the earliest of the dates a grant's
    /// earliest date applies to, as the record had them (``HistoryVisibility``).
    public var earliestDate: Date?

    public init(
        sequence: Int64, entityID: UUID, kind: Kind, client: ClientIdentifier? = nil, earliestDate: Date? = nil
    ) {
        self.sequence = sequence
        self.entityID = entityID
        self.kind = kind
        self.client = client
        self.earliestDate = earliestDate
    }
}
