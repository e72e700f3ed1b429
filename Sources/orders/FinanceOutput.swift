import Foundation
import WalletOrders
import WalletPrimitives

/// Printing financial data: signed amounts with their currency, and JSON.
enum FinanceOutput {
    /// `-950.00 EUR`: signed in the account's natural direction, with the currency's minor units.
    static func amount(_ value: Decimal, _ currency: String) -> String {
        let digits = minorUnits(currency)
        let text = value.formatted(
            .number.precision(.fractionLength(digits)).grouping(.never).locale(Locale(identifier: "en_US_POSIX")))
        return "\(text) \(currency)"
    }

    static func minorUnits(_ currency: String) -> Int {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.currencyCode = currency
        return formatter.maximumFractionDigits
    }

    static func date(_ date: Date?) -> String {
        date.map { RFC3339Timestamp($0).text } ?? "-"
    }

    /// `2026-11-19` for tables.
    static func day(_ date: Date) -> String {
        String(RFC3339Timestamp(date).text.prefix(10))
    }

    static func parseDate(_ text: String, option: String) throws -> Date {
        guard let timestamp = RFC3339Timestamp(text) else {
            throw CommandFailure(
                "\(option) needs an RFC 3339 date-time such as 2026-11-01T00:00:00Z, not \(MessageText.quote(text))")
        }
        return timestamp.date
    }

    static func parseAccount(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else {
            throw CommandFailure("\(MessageText.quote(text)) is not an account id (a UUID)")
        }
        return id
    }
}
