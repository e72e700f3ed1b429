/// The direction of an amount; amounts themselves are never negative.
public enum CreditDebitIndicator: Int16, NamedCases, Hashable, Sendable {
    case credit
    case debit

    public static let caseNames = CaseNames<Self>()
}
