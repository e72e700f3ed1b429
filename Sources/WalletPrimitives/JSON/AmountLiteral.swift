/// The one rule for amounts, in orders and in financial data alike (docs/order-format.md,
/// "Amounts"): a finite decimal written `-?digits(.digits)?`, with at most
/// ``maximumIntegerDigits`` digits before the point (leading zeros aside) and
/// ``maximumFractionDigits`` after it — 38 in all, what Foundation's `Decimal` holds exactly.
/// Wallet also takes a JSON number; it must then be such an amount however it is written
/// (`1.25e2` is `125`; `1e999999` is no amount).
public enum AmountLiteral {
    public static let maximumIntegerDigits = 26
    public static let maximumFractionDigits = 12

    /// Why `text` is not an amount (a sentence for a finding), or nil when it is one.
    public static func problem(_ text: String) -> String? {
        // One pass over the bytes, nothing allocated: every amount of every order comes here.
        var integerCount = 0
        var integerDigits = 0  // leading zeros aside
        var fractionDigits = 0
        var seenDot = false
        var first = true
        for byte in text.utf8 {
            defer { first = false }
            switch byte {
            case UInt8(ascii: "-") where first:
                continue
            case UInt8(ascii: ".") where !seenDot && integerCount > 0:
                seenDot = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if seenDot {
                    fractionDigits += 1
                } else {
                    integerCount += 1
                    if byte != UInt8(ascii: "0") || integerDigits > 0 { integerDigits += 1 }
                }
            default:
                return "\(MessageText.quote(text)) is not a decimal amount such as \"12.50\""
            }
        }
        guard integerCount > 0, !(seenDot && fractionDigits == 0) else {
            return "\(MessageText.quote(text)) is not a decimal amount such as \"12.50\""
        }
        guard integerDigits <= maximumIntegerDigits, fractionDigits <= maximumFractionDigits else {
            return "\(MessageText.quote(String(text.prefix(40)))) has \(integerDigits) digits before the point and "
                + "\(fractionDigits) after it; an amount has at most \(maximumIntegerDigits) and \(maximumFractionDigits)"
        }
        return nil
    }

    /// A JSON number literal written out as a plain decimal (`1.25e2` → `125`, `5E-1` → `0.5`,
    /// `-0.50` → `-0.50`), or nil when it is not a JSON number or its exponent puts it beyond any
    /// amount (the result is then checked with ``problem(_:)`` like any amount).
    public static func plain(jsonNumber literal: String) -> String? {
        var bytes = Array(literal.utf8)[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        let exponentMark = bytes.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = bytes[..<(exponentMark ?? bytes.endIndex)]
        var exponent = 0
        if let exponentMark {
            var digits = bytes[(exponentMark + 1)...]
            var sign = 1
            if let first = digits.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
                sign = first == UInt8(ascii: "-") ? -1 : 1
                digits = digits.dropFirst()
            }
            // Beyond 100 either way no amount can result: refused before any digit is written.
            guard !digits.isEmpty, digits.allSatisfy(isDigit), digits.count <= 3,
                let magnitude = Int(String(decoding: digits, as: UTF8.self)), magnitude <= 100
            else { return nil }
            exponent = sign * magnitude
        }
        let parts = mantissa.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) }) else { return nil }
        guard exponent != 0 else { return literal }
        let fraction = parts.count == 2 ? Array(parts[1]) : []
        let digits = Array(parts[0]) + fraction
        let point = parts[0].count + exponent
        var integer: [UInt8]
        var rest: [UInt8]
        if point <= 0 {
            integer = [UInt8(ascii: "0")]
            rest = Array(repeating: UInt8(ascii: "0"), count: -point) + digits
        } else if point >= digits.count {
            integer = digits + Array(repeating: UInt8(ascii: "0"), count: point - digits.count)
            rest = []
        } else {
            integer = Array(digits[..<point])
            rest = Array(digits[point...])
        }
        while integer.count > 1, integer.first == UInt8(ascii: "0") { integer.removeFirst() }
        let text = String(decoding: integer, as: UTF8.self) + (rest.isEmpty ? "" : "." + String(decoding: rest, as: UTF8.self))
        return (negative ? "-" : "") + text
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
