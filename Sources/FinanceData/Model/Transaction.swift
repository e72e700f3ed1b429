import Foundation

/// A transaction of an account (FinanceKit's fields). Amounts are never negative; the
/// ``creditDebitIndicator`` gives the direction, ``signedAmount(for:)`` the signed value.
public struct Transaction: Codable, Equatable, Hashable, Identifiable, Sendable {
    public let id: UUID
    public var accountID: UUID
    public var transactionAmount: CurrencyAmount
    public var foreignCurrencyAmount: CurrencyAmount?
    public var foreignCurrencyExchangeRate: Decimal?
    public var creditDebitIndicator: CreditDebitIndicator
    public var transactionDescription: String
    public var originalTransactionDescription: String
    public var merchantCategoryCode: MerchantCategoryCode?
    public var merchantName: String?
    public var transactionType: TransactionType
    public var status: TransactionStatus
    public var transactionDate: Date
    /// Nil until posted; FinanceKit then uses ``transactionDate``.
    public var postedDate: Date?

    public init(
        id: UUID, accountID: UUID, transactionAmount: CurrencyAmount, foreignCurrencyAmount: CurrencyAmount? = nil,
        foreignCurrencyExchangeRate: Decimal? = nil, creditDebitIndicator: CreditDebitIndicator, transactionDescription: String,
        originalTransactionDescription: String, merchantCategoryCode: MerchantCategoryCode? = nil, merchantName: String? = nil,
        transactionType: TransactionType, status: TransactionStatus, transactionDate: Date, postedDate: Date? = nil
    ) {
        self.id = id
        self.accountID = accountID
        self.transactionAmount = transactionAmount
        self.foreignCurrencyAmount = foreignCurrencyAmount
        self.foreignCurrencyExchangeRate = foreignCurrencyExchangeRate
        self.creditDebitIndicator = creditDebitIndicator
        self.transactionDescription = transactionDescription
        self.originalTransactionDescription = originalTransactionDescription
        self.merchantCategoryCode = merchantCategoryCode
        self.merchantName = merchantName
        self.transactionType = transactionType
        self.status = status
        self.transactionDate = transactionDate
        self.postedDate = postedDate
    }

    /// `postedDate ?? transactionDate`: the date the project sorts and filters on by default.
    public var effectiveDate: Date { postedDate ?? transactionDate }

    /// The amount signed in the account's natural direction (asset: +credit −debit;
    /// liability: +debit −credit).
    public func signedAmount(for kind: Account.Kind) -> Decimal {
        SignedAmount.signed(transactionAmount.amount, creditDebitIndicator, for: kind)
    }
}
