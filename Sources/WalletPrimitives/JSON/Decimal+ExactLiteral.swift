import Foundation

extension Decimal {
    /// Parses a decimal-string amount, `-?digits(.digits)?` (`"12.50"`, `"-3"`), exactly: never
    /// through `Double`, and nothing else (no exponent, no spaces, no locale), within
    /// ``AmountLiteral``'s digits. The form of amounts in order.json and in the financial-data feed.
    public init?(exactLiteral text: String) {
        guard AmountLiteral.problem(text) == nil else { return nil }
        if let value = Decimal(plainLiteral: text) {
            self = value
            return
        }
        guard let value = Decimal(string: text, locale: Self.posix) else { return nil }
        self = value
    }

    /// Making a `Locale` is not cheap; numbers are always read in this one.
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// `-?digits(.digits)?` with at most 18 significant digits and a value other than zero,
    /// built from its digits: the same `Decimal` as `Decimal(string:locale:)` gives (value,
    /// exponent, significand — `DecimalExactLiteralTests` compares them), without its locale lookups,
    /// which were a tenth of validating an order.json's numbers. Nil for anything else (an
    /// exponent, zero, more digits), which callers parse the general way.
    public init?(plainLiteral text: String) {
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var negative = false
        var seenDot = false
        var seenDigit = false
        var index = 0
        for byte in text.utf8 {
            defer { index += 1 }
            switch byte {
            case UInt8(ascii: "-") where index == 0:
                negative = true
            case UInt8(ascii: ".") where !seenDot && seenDigit:
                seenDot = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                seenDigit = true
                if mantissa == 0 && byte == UInt8(ascii: "0") {
                    // A leading zero adds no significant digit.
                } else {
                    digits += 1
                    guard digits <= 18 else { return nil }
                    mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                }
                if seenDot { fractionDigits += 1 }
            default:
                return nil
            }
        }
        guard mantissa != 0, !(seenDot && fractionDigits == 0) else { return nil }
        var exponent = -fractionDigits
        while mantissa % 10 == 0 {
            mantissa /= 10
            exponent += 1
        }
        self.init(sign: negative ? .minus : .plus, exponent: exponent, significand: Decimal(mantissa))
    }
}

extension Decimal {
    /// How many fraction digits a decimal literal is written with: `"64.80"` → 2, `"3"` → 0.
    /// `Decimal` itself forgets this (`64.80` is stored as `64.8`), so amounts that must be
    /// written back as given keep it beside the value.
    public static func fractionDigits(ofLiteral text: String) -> Int {
        guard let dot = text.utf8.firstIndex(of: UInt8(ascii: ".")) else { return 0 }
        return text.utf8.distance(from: dot, to: text.utf8.endIndex) - 1
    }

    /// The fraction digits the value needs: `64.8` → 1, `12` → 0.
    public var fractionDigits: Int {
        isZero ? 0 : Swift.max(0, -Int(exponent))
    }

    /// Plain decimal text (never an exponent) with at least `fractionDigits` fraction digits:
    /// `64.8` at 2 is `"64.80"`, `12` at 2 is `"12.00"`, `1.125` at 2 stays `"1.125"`.
    public func literal(fractionDigits: Int) -> String {
        let text = description
        let present = Decimal.fractionDigits(ofLiteral: text)
        guard fractionDigits > present else { return text }
        return text + (present == 0 ? "." : "") + String(repeating: "0", count: fractionDigits - present)
    }
}
