import Foundation

/// An amount at an instant, with its direction. FinanceKit treats a zero balance as a credit.
public struct Balance: Codable, Equatable, Hashable, Sendable {
    public var amount: CurrencyAmount
    public var asOfDate: Date
    public var creditDebitIndicator: CreditDebitIndicator

    public init(amount: CurrencyAmount, asOfDate: Date, creditDebitIndicator: CreditDebitIndicator) {
        self.amount = amount
        self.asOfDate = asOfDate
        self.creditDebitIndicator = creditDebitIndicator
    }

    /// The amount signed in the account's natural direction: an asset's credit balance is
    /// positive; a liability's debit balance (money owed) is positive.
    public func signedAmount(for kind: Account.Kind) -> Decimal {
        SignedAmount.signed(amount.amount, creditDebitIndicator, for: kind)
    }
}

/// FinanceKit's sign convention, in one place.
public enum SignedAmount {
    /// Asset: credit +, debit −. Liability: debit + (owed goes up), credit − (owed goes down).
    public static func signed(_ amount: Decimal, _ indicator: CreditDebitIndicator, for kind: Account.Kind) -> Decimal {
        switch (kind, indicator) {
        case (.asset, .credit), (.liability, .debit): amount
        case (.asset, .debit), (.liability, .credit): -amount
        }
    }
}
