extension Order {
    /// `payment`: what was paid and how.
    public struct Payment: Sendable, Hashable, Codable {
        public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
            case pending, authorized, paid, refunded, declined, voided
        }

        public var total: CurrencyAmount
        public var summaryItems: [SummaryItem]?
        public var transactions: [PaymentTransaction]?
        public var status: Status?
        public var paymentMethods: [String]?
        public var applePayTransactionIdentifiers: [String]?

        public init(
            total: CurrencyAmount, summaryItems: [SummaryItem]? = nil, transactions: [PaymentTransaction]? = nil,
            status: Status? = nil, paymentMethods: [String]? = nil, applePayTransactionIdentifiers: [String]? = nil
        ) {
            self.total = total
            self.summaryItems = summaryItems
            self.transactions = transactions
            self.status = status
            self.paymentMethods = paymentMethods
            self.applePayTransactionIdentifiers = applePayTransactionIdentifiers
        }
    }

    /// A labelled line of the payment summary.
    public struct SummaryItem: Sendable, Hashable, Codable {
        public var label: String
        public var value: CurrencyAmount

        public init(label: String, value: CurrencyAmount) {
            self.label = label
            self.value = value
        }
    }

    /// How a payment transaction was made.
    public struct PaymentMethod: Sendable, Hashable, Codable {
        public var displayName: String

        public init(displayName: String) {
            self.displayName = displayName
        }
    }
}
