/// Decimal digits of a non-negative integer appended to bytes, zero-padded to a width, without
/// Foundation's formatting (`String(format: "%04d")` was a third of encoding a served answer).
///
/// ```swift
/// var bytes: [UInt8] = []
/// DecimalDigits.append(7, minimumDigits: 2, to: &bytes)   // "07"
/// ```
public enum DecimalDigits {
    /// Appends `value` in decimal, with leading zeros up to `minimumDigits`; a longer number keeps
    /// all its digits.
    public static func append(_ value: UInt64, minimumDigits: Int = 1, to bytes: inout [UInt8]) {
        var divisor: UInt64 = 1
        var length = 1
        while value / divisor >= 10 {
            divisor *= 10
            length += 1
        }
        for _ in length..<max(length, minimumDigits) { bytes.append(UInt8(ascii: "0")) }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
