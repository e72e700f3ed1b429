import Foundation
import WalletPrimitives

/// An amount of money: an exact `Decimal`, never negative in FinanceKit's models (the direction
/// is a ``CreditDebitIndicator``), and a currency code (usually ISO 4217).
///
/// Codable as `{"amount": "12.50", "currencyCode": "EUR"}`: the amount is a string so that no
/// JSON library turns it into a binary floating-point number.
public struct CurrencyAmount: Equatable, Hashable, Sendable, Codable {
    public var amount: Decimal
    public var currencyCode: String

    public init(amount: Decimal, currencyCode: String) {
        self.amount = amount
        self.currencyCode = currencyCode
    }

    private enum CodingKeys: String, CodingKey {
        case amount, currencyCode
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        currencyCode = try container.decode(String.self, forKey: .currencyCode)
        let text = try container.decode(String.self, forKey: .amount)
        guard let amount = Decimal(exactLiteral: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .amount, in: container,
                debugDescription: "\(MessageText.quote(text)) is not a decimal amount such as \"12.50\"")
        }
        self.amount = amount
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(amount.description, forKey: .amount)
        try container.encode(currencyCode, forKey: .currencyCode)
    }
}
