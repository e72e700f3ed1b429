/// What kind of transaction it is (FinanceKit's 17 cases).
public enum TransactionType: Int16, NamedCases, Hashable, Sendable {
    case adjustment, atm, billPayment, check, deposit, directDebit, directDeposit, dividend, fee, interest, loan,
        pointOfSale, refund, standingOrder, transfer, unknown, withdrawal

    public static let caseNames = CaseNames<Self>()
}
