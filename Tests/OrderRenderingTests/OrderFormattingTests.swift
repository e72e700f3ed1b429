import Foundation
import OrderPackage
import OrderRendering
import Testing
import WalletPrimitives

@Suite("OrderFormatting: amounts in the currency's minor units and the reader's locale; times in the order's offset")
struct OrderFormattingTests {
    static let english = OrderFormatting(locale: Locale(identifier: "en_US"))
    static let german = OrderFormatting(locale: Locale(identifier: "de_DE"))

    static func amount(_ text: String, _ currency: String) -> Order.CurrencyAmount {
        Order.CurrencyAmount(amount: Decimal(string: text) ?? .nan, currency: currency)
    }

    @Test("minor units by currency, more when the amount has more; grouping and symbol by locale")
    func amounts() {
        #expect(Self.english.amount(Self.amount("1234.5", "EUR")) == "€1,234.50")
        #expect(Self.english.amount(Self.amount("500", "JPY")) == "¥500")
        #expect(Self.english.amount(Self.amount("1.5", "BHD")).hasSuffix("1.500"))
        #expect(Self.english.amount(Self.amount("0.005", "EUR")) == "€0.005")
        #expect(Self.english.amount(Self.amount("-9.5", "USD")) == "-$9.50")
        #expect(Self.german.amount(Self.amount("1234.5", "EUR")) == "1.234,50\u{00A0}€")
    }

    @Test("times are shown in the offset they were written with, whatever the reader's zone")
    func times() throws {
        let pickup = try #require(RFC3339Timestamp("2026-03-12T14:30:00+01:00"))
        let shown = Self.english.dateTime(pickup)
        #expect(shown.contains("Mar 12, 2026") && shown.contains("2:30"))
        let west = try #require(RFC3339Timestamp("2026-03-12T23:30:00-08:00"))
        #expect(Self.english.day(west) == "Mar 12, 2026")  // already the 13th in UTC
        let utc = try #require(RFC3339Timestamp("2026-03-12T23:30:00Z"))
        #expect(Self.english.dateTime(utc).contains("11:30"))
        #expect(Self.german.day(pickup) == "12.03.2026" || Self.german.day(pickup) == "12. März 2026")
    }
}
