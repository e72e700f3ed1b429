import Foundation

extension Decimal {
    /// Parses a decimal-string amount, `-?digits(.digits)?` (`"12.50"`, `"-3"`), exactly: never
    /// through `Double`, and nothing else (no exponent, no spaces, no locale). The form of amounts
    /// in order.json and in the financial-data feed.
    public init?(exactLiteral text: String) {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
            let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        else { return nil }
        self = value
    }
}
