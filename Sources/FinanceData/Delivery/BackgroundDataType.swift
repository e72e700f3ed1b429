/// What a background delivery tells about (FinanceKit's `BackgroundDataType`): which history a
/// woken client should catch up on.
public enum BackgroundDataType: String, CaseIterable, Codable, Hashable, Sendable, Comparable {
    case accounts
    case accountBalances
    case transactions

    /// Whether a change-log stream (`accounts`, `balances/<id>`, `transactions/<id>`) is of this
    /// type.
    func covers(_ stream: HistoryStream) -> Bool {
        switch (self, stream) {
        case (.accounts, .accounts), (.accountBalances, .balances), (.transactions, .transactions): true
        default: false
        }
    }

    /// FinanceKit's order: accounts, balances, transactions.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .accounts: 0
        case .accountBalances: 1
        case .transactions: 2
        }
    }
}
