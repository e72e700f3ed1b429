import WalletPrimitives

extension Order {
    /// An entry of `payment.transactions`: a purchase or a refund.
    public struct PaymentTransaction: Sendable, Hashable, Codable {
        public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
            case pending, approved, completed, cancelled, failed
        }

        public enum TransactionType: String, Sendable, Hashable, Codable, CaseIterable {
            case purchase, refund
        }

        public var amount: CurrencyAmount
        public var createdAt: RFC3339Timestamp
        public var paymentMethod: PaymentMethod
        public var status: Status
        public var transactionType: TransactionType
        public var applePayTransactionIdentifier: String?
        /// A receipt file in the package.
        public var receipt: String?

        public init(
            amount: CurrencyAmount, createdAt: RFC3339Timestamp, paymentMethod: PaymentMethod, status: Status,
            transactionType: TransactionType, applePayTransactionIdentifier: String? = nil, receipt: String? = nil
        ) {
            self.amount = amount
            self.createdAt = createdAt
            self.paymentMethod = paymentMethod
            self.status = status
            self.transactionType = transactionType
            self.applePayTransactionIdentifier = applePayTransactionIdentifier
            self.receipt = receipt
        }
    }
}
