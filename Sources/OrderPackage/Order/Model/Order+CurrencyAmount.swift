import Foundation
import WalletPrimitives

extension Order {
    /// An amount of money: a decimal string in JSON (`"12.50"`), an exact `Decimal` here.
    ///
    /// Encodes `amount` as a string, as Apple specifies, with the fraction digits it was
    /// written with (``scale``: `"64.80"` stays `"64.80"`); decodes a string or (leniently) a
    /// number. Equal when value and currency are: `64.8` and `64.80` are the same amount.
    public struct CurrencyAmount: Sendable, Hashable, Codable {
        public var amount: Decimal
        /// ISO 4217, e.g. `USD`.
        public var currency: String
        /// How many fraction digits to write: as order.json wrote it, at least what the value needs.
        public var scale: Int

        /// - Parameter scale: the fraction digits to write; by default what `amount` needs.
        public init(amount: Decimal, currency: String, scale: Int? = nil) {
            self.amount = amount
            self.currency = currency
            self.scale = scale ?? amount.fractionDigits
        }

        /// The amount as exact decimal text with its scale: `"64.80"`.
        public var literal: String {
            amount.literal(fractionDigits: scale)
        }

        public static func == (lhs: CurrencyAmount, rhs: CurrencyAmount) -> Bool {
            lhs.amount == rhs.amount && lhs.currency == rhs.currency
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(amount)
            hasher.combine(currency)
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
                scale = Decimal.fractionDigits(ofLiteral: text)
            } else {
                amount = try container.decode(Decimal.self, forKey: .amount)
                scale = amount.fractionDigits
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(literal, forKey: .amount)
            try container.encode(currency, forKey: .currency)
        }
    }
}
