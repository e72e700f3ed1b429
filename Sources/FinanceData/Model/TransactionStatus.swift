/// Where a transaction is in its life (FinanceKit's 5 cases). A transaction keeps its id from
/// `pending` to `booked`.
public enum TransactionStatus: Int16, NamedCases, Hashable, Sendable {
    case authorized, booked, memo, pending, rejected

    public static let caseNames = CaseNames<Self>()
}
