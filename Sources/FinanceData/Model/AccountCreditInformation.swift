import Foundation

/// Credit details of a liability account.
public struct AccountCreditInformation: Codable, Equatable, Hashable, Sendable {
    public var creditLimit: CurrencyAmount?
    public var nextPaymentDueDate: Date?
    public var minimumNextPaymentAmount: CurrencyAmount?
    public var overduePaymentAmount: CurrencyAmount?

    public init(
        creditLimit: CurrencyAmount? = nil, nextPaymentDueDate: Date? = nil, minimumNextPaymentAmount: CurrencyAmount? = nil,
        overduePaymentAmount: CurrencyAmount? = nil
    ) {
        self.creditLimit = creditLimit
        self.nextPaymentDueDate = nextPaymentDueDate
        self.minimumNextPaymentAmount = minimumNextPaymentAmount
        self.overduePaymentAmount = overduePaymentAmount
    }
}
