import Foundation
import OrderPackage

/// Amounts for people: `EUR 61.00`, `JPY 500` (the currency's own minor units, via ICU).
enum AmountFormatter {
    static func format(_ amount: Order.CurrencyAmount) -> String {
        amount.amount.formatted(.currency(code: amount.currency).presentation(.isoCode).locale(Locale(identifier: "en_US_POSIX")))
            .replacingOccurrences(of: "\u{A0}", with: " ")  // ICU separates code and number with a no-break space
    }
}
