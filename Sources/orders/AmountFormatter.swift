import Foundation
import OrderPackage

/// The one way amounts are printed for people, in every command: the number, a space, the ISO
/// currency code — `49.00 EUR`, `-950.00 EUR`, `500 JPY`.
///
/// The number has the currency's minor units (ICU's table: 2 for EUR, 0 for JPY, 3 for BHD), or
/// more when the amount itself has more (`0.005 EUR` is never rounded away); no grouping
/// separators, so the text is the same in every locale. `--json` keeps the amount's own digits.
enum AmountFormatter {
    static func format(_ value: Decimal, currency: String) -> String {
        let digits = fractionDigits(value, atLeast: minorUnits(currency))
        let text = value.formatted(
            .number.precision(.fractionLength(digits)).grouping(.never).locale(Locale(identifier: "en_US_POSIX")))
        return "\(text) \(currency)"
    }

    static func format(_ amount: Order.CurrencyAmount) -> String {
        format(amount.amount, currency: amount.currency)
    }

    static func minorUnits(_ currency: String) -> Int {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.currencyCode = currency
        return formatter.maximumFractionDigits
    }

    /// Digits after the point that `value` needs beyond `minimum` (`12.50` → 1, `12` → 0).
    private static func fractionDigits(_ value: Decimal, atLeast minimum: Int) -> Int {
        // The exponent bounds the digits (trailing zeros included); only a value that may need
        // more than the currency's minor units is rounded to find out.
        let bound = max(0, -Int(value.exponent))
        guard bound > minimum else { return minimum }
        var value = value
        var rounded = Decimal()
        for digits in minimum..<bound {
            NSDecimalRound(&rounded, &value, digits, .plain)
            if rounded == value { return digits }
        }
        return bound
    }
}
