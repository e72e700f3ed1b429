import Foundation
import WalletPrimitives

/// An amount of money: an exact `Decimal`, never negative in FinanceKit's models (the direction
/// is a ``CreditDebitIndicator``), and a currency code (usually ISO 4217).
///
/// Codable as `{"amount": "12.50", "currencyCode": "EUR"}`: the amount is a string so that no
/// JSON library turns it into a binary floating-point number, and it is written with the
/// fraction digits it was given with (``scale``): `"64.80"` stays `"64.80"`.
///
/// Two amounts are equal when their values and currencies are: `64.8` and `64.80` EUR are the
/// same money, written two ways.
public struct CurrencyAmount: Hashable, Sendable, Codable {
    public var amount: Decimal
    public var currencyCode: String
    /// How many fraction digits to write (server addition): as the amount was written in the
    /// feed, at least what the value needs.
    public var scale: Int

    /// - Parameter scale: the fraction digits to write; by default what `amount` needs.
    public init(amount: Decimal, currencyCode: String, scale: Int? = nil) {
        self.amount = amount
        self.currencyCode = currencyCode
        self.scale = scale ?? amount.fractionDigits
    }

    /// An amount written as an exact decimal literal (`"64.80"`), keeping its scale; nil when
    /// `literal` is not one (see `Decimal(exactLiteral:)`).
    public init?(literal: String, currencyCode: String) {
        guard let amount = Decimal(exactLiteral: literal) else { return nil }
        self.init(amount: amount, currencyCode: currencyCode, scale: Decimal.fractionDigits(ofLiteral: literal))
    }

    /// The amount as exact decimal text with its scale: `"64.80"`.
    public var literal: String {
        amount.literal(fractionDigits: scale)
    }

    public static func == (lhs: CurrencyAmount, rhs: CurrencyAmount) -> Bool {
        lhs.amount == rhs.amount && lhs.currencyCode == rhs.currencyCode
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(amount)
        hasher.combine(currencyCode)
    }

    private enum CodingKeys: String, CodingKey {
        case amount, currencyCode
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let currencyCode = try container.decode(String.self, forKey: .currencyCode)
        let text = try container.decode(String.self, forKey: .amount)
        guard let amount = CurrencyAmount(literal: text, currencyCode: currencyCode) else {
            throw DecodingError.dataCorruptedError(
                forKey: .amount, in: container,
                debugDescription: "\(MessageText.quote(text)) is not a decimal amount such as \"12.50\"")
        }
        self = amount
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(literal, forKey: .amount)
        try container.encode(currencyCode, forKey: .currencyCode)
    }
}
