import Foundation
import OrderPackage
import WalletPrimitives

/// How a rendered order shows amounts and times to one reader: in the reader's locale (the
/// language chosen by `--locale` or `Accept-Language`), with each currency's own minor units.
///
/// - Amounts: `€1,234.50` in `en_US`, `1.234,50 €` in `de_DE`, `¥500` for JPY — at least the
///   currency's minor units (ICU's table), more when the amount itself has more (`€0.005` is
///   never rounded away: a receipt shows what was charged).
/// - Times: in the UTC offset the order wrote them with (`2026-03-12T14:30:00+01:00` is shown
///   as 14:30 wherever the reader is), which is how a merchant states a pickup window or a
///   delivery estimate: the local time of the place. A time written in UTC (`Z`) is shown in UTC.
public struct OrderFormatting: Sendable {
    public let locale: Locale

    public init(locale: Locale) {
        self.locale = locale
    }

    /// The amount with its currency, in the reader's locale.
    public func amount(_ amount: Order.CurrencyAmount) -> String {
        let digits = max(Self.minorUnits(of: amount.currency), amount.amount.fractionDigits)
        return amount.amount.formatted(
            .currency(code: amount.currency).locale(locale).precision(.fractionLength(digits)))
    }

    /// The day and time, in the timestamp's own offset.
    public func dateTime(_ timestamp: RFC3339Timestamp) -> String {
        timestamp.date.formatted(
            Date.FormatStyle(date: .abbreviated, time: .shortened, locale: locale, timeZone: Self.timeZone(of: timestamp)))
    }

    /// The day alone, in the timestamp's own offset.
    public func day(_ timestamp: RFC3339Timestamp) -> String {
        timestamp.date.formatted(
            Date.FormatStyle(date: .abbreviated, time: .omitted, locale: locale, timeZone: Self.timeZone(of: timestamp)))
    }

    /// A window from `start` lasting `duration`, in `start`'s offset: `Jan 18, 2026, 10:00 AM – 12:00 PM`.
    public func window(from start: RFC3339Timestamp, lasting duration: ISO8601Duration) -> String {
        let end = start.date.addingTimeInterval(duration.approximateSeconds)
        guard end > start.date else { return dateTime(start) }
        return (start.date..<end).formatted(
            Date.IntervalFormatStyle(date: .abbreviated, time: .shortened, locale: locale, timeZone: Self.timeZone(of: start)))
    }

    /// A quantity as the locale writes numbers (`1.5`, `1,5`).
    public func quantity(_ quantity: Decimal) -> String {
        quantity.formatted(.number.locale(locale))
    }

    /// A country's name in the reader's language, from its ISO 3166 code; the code when unknown.
    public func country(_ code: String) -> String {
        locale.localizedString(forRegionCode: code) ?? code
    }

    private static let utc = TimeZone(identifier: "UTC") ?? .current

    /// The offset an RFC 3339 timestamp was written with: `Z` or `±hh:mm` at its end.
    static func timeZone(of timestamp: RFC3339Timestamp) -> TimeZone {
        let text = timestamp.text
        guard let last = text.last, last != "Z", last != "z", text.count >= 6 else { return Self.utc }
        let offset = text.suffix(6)
        guard let sign = offset.first, sign == "+" || sign == "-", let hours = Int(offset.dropFirst().prefix(2)),
            let minutes = Int(offset.suffix(2))
        else { return Self.utc }
        let seconds = (hours * 3_600 + minutes * 60) * (sign == "-" ? -1 : 1)
        return TimeZone(secondsFromGMT: seconds) ?? Self.utc
    }

    /// The currency's minor units by ISO 4217 (2 unless listed: 0 for JPY, 3 for BHD). A table
    /// here rather than ICU's: Foundation on Linux does not expose ICU's currency digits.
    static func minorUnits(of currency: String) -> Int {
        switch currency.uppercased() {
        case "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF",
            "XPF":
            0
        case "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND": 3
        case "CLF", "UYW": 4
        default: 2
        }
    }
}
