import Foundation
import OrderPackage

/// The one way amounts are printed for people, in every command: the number, a space, the ISO
/// currency code — `49.00 EUR`, `-950.00 EUR`, `500 JPY`.
///
/// The number has at least the currency's minor units (ICU's table: 2 for EUR, 0 for JPY, 3 for
/// BHD) and more when the amount itself has more (`0.005 EUR` is never rounded away); plain
/// digits without grouping, so the text is the same in every locale. `--json` keeps the
/// amount's own digits. One formatter per table remembers each currency's minor units (ICU
/// builds a number formatter to answer).
struct AmountFormatter {
    private var minorUnitsByCurrency: [String: Int] = [:]

    mutating func format(_ value: Decimal, currency: String) -> String {
        "\(value.literal(fractionDigits: minorUnits(currency))) \(currency)"
    }

    mutating func format(_ amount: Order.CurrencyAmount) -> String {
        format(amount.amount, currency: amount.currency)
    }

    /// One amount, for a line that shows only one.
    static func format(_ amount: Order.CurrencyAmount) -> String {
        var formatter = AmountFormatter()
        return formatter.format(amount)
    }

    private mutating func minorUnits(_ currency: String) -> Int {
        if let known = minorUnitsByCurrency[currency] { return known }
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.currencyCode = currency
        minorUnitsByCurrency[currency] = formatter.maximumFractionDigits
        return formatter.maximumFractionDigits
    }
}
