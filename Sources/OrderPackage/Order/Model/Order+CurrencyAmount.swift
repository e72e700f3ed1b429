import Foundation
import WalletPrimitives

extension Order {
    /// An amount of money: a decimal string in JSON (`"12.50"`), an exact `Decimal` here.
    ///
    /// Encodes `amount` as a string, as Apple specifies; decodes a string or (leniently) a number.
    public struct CurrencyAmount: Sendable, Hashable, Codable {
        public var amount: Decimal
        /// ISO 4217, e.g. `USD`.
        public var currency: String

        public init(amount: Decimal, currency: String) {
            self.amount = amount
            self.currency = currency
        }

        private enum CodingKeys: String, CodingKey {
            case amount, currency
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            currency = try container.decode(String.self, forKey: .currency)
            if let text = try? container.decode(String.self, forKey: .amount) {
                guard let value = Decimal(exactLiteral: text) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .amount, in: container, debugDescription: "\(MessageText.quote(text)) is not a decimal amount")
                }
                amount = value
            } else {
                amount = try container.decode(Decimal.self, forKey: .amount)
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(amount.description, forKey: .amount)
            try container.encode(currency, forKey: .currency)
        }
    }
}
