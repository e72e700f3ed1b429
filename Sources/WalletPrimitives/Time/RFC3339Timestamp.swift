import Foundation

/// An RFC 3339 date-time as written in `order.json`, e.g. `2026-03-01T09:30:00.125+01:00`.
///
/// The original text is kept verbatim, and the instant is held exactly (whole seconds plus
/// nanoseconds), so comparing two timestamps never suffers from `Date`'s floating point:
/// `…00.1Z` equals `…00.100Z` and is less than `…00.100001Z`.
///
/// Equality, hashing and ordering use the instant only: `12:00:00Z` == `13:00:00+01:00`.
public struct RFC3339Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The text exactly as written.
    public let text: String
    /// Whole seconds since 1970-01-01T00:00:00Z.
    public let secondsSinceEpoch: Int64
    /// The fraction of the second, 0..<1_000_000_000.
    public let nanoseconds: Int32

    /// Parses an RFC 3339 `date-time`: an offset (`Z` or `±hh:mm`) is required, fractional
    /// seconds (up to 9 digits) are allowed.
    public init?(_ text: String) {
        guard let parsed = Self.parse(Array(text.utf8)) else { return nil }
        self.text = text
        self.secondsSinceEpoch = parsed.seconds
        self.nanoseconds = parsed.nanoseconds
    }

    /// The instant of `date` in UTC, written with microseconds when it has a fraction.
    public init(_ date: Date) {
        let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded(.down))
        let seconds = microseconds.floorDivided(by: 1_000_000)
        let fraction = microseconds - seconds * 1_000_000
        self.secondsSinceEpoch = seconds
        self.nanoseconds = Int32(fraction * 1000)
        self.text = Self.format(seconds: seconds, microseconds: fraction)
    }

    /// The instant `milliseconds` after 1970 in UTC, always written with three fractional digits
    /// (`2026-11-29T10:15:09.020Z`, never `…09.02Z`): texts of this form sort as their instants do.
    public init(millisecondsSinceEpoch milliseconds: Int64) {
        let seconds = milliseconds.floorDivided(by: 1_000)
        let fraction = milliseconds - seconds * 1_000
        self.secondsSinceEpoch = seconds
        self.nanoseconds = Int32(fraction * 1_000_000)
        self.text = Self.format(seconds: seconds, fraction: fraction, digits: 3)
    }

    /// Milliseconds since 1970, rounded toward the past.
    public var millisecondsSinceEpoch: Int64 {
        secondsSinceEpoch * 1_000 + Int64(nanoseconds / 1_000_000)
    }

    /// The instant as a `Date` (sub-microsecond precision may be lost).
    public var date: Date {
        Date(timeIntervalSince1970: TimeInterval(secondsSinceEpoch) + TimeInterval(nanoseconds) / 1e9)
    }

    /// Microseconds since 1970, rounded toward the past: a sortable integer for storage.
    public var microsecondsSinceEpoch: Int64 {
        secondsSinceEpoch * 1_000_000 + Int64(nanoseconds / 1000)
    }

    public var description: String { text }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.secondsSinceEpoch == rhs.secondsSinceEpoch && lhs.nanoseconds == rhs.nanoseconds
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(secondsSinceEpoch)
        hasher.combine(nanoseconds)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.secondsSinceEpoch, lhs.nanoseconds) < (rhs.secondsSinceEpoch, rhs.nanoseconds)
    }

    public init(from decoder: any Decoder) throws {
        self = try decoder.decodeText(Self.init, expected: "an RFC 3339 date-time")
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// `date` in UTC as `2026-11-22T05:00:00Z` (whole seconds), for messages.
    public static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        return format(seconds: seconds, microseconds: 0)
    }

    // MARK: - Parsing and formatting

    /// `fraction` written with exactly `digits` digits after the seconds (none when 0).
    private static func format(seconds: Int64, fraction: Int64, digits: Int) -> String {
        let days = seconds.floorDivided(by: 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = CivilCalendar.date(fromDays: Int(days))
        var text: [UInt8] = []
        text.reserveCapacity(27)
        func append(_ value: Int, digits: Int) {
            DecimalDigits.append(UInt64(value), minimumDigits: digits, to: &text)
        }
        if year < 0 { text.append(UInt8(ascii: "-")) }
        append(abs(year), digits: 4)
        text.append(UInt8(ascii: "-"))
        append(month, digits: 2)
        text.append(UInt8(ascii: "-"))
        append(day, digits: 2)
        text.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, digits: 2)
        text.append(UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, digits: 2)
        text.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, digits: 2)
        if digits > 0 {
            text.append(UInt8(ascii: "."))
            append(Int(fraction), digits: digits)
        }
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// Microseconds written with as few digits as they need (none for a whole second).
    private static func format(seconds: Int64, microseconds: Int64) -> String {
        var fraction = microseconds
        var digits = microseconds == 0 ? 0 : 6
        while digits > 0, fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        return format(seconds: seconds, fraction: fraction, digits: digits)
    }

    private static func parse(_ bytes: [UInt8]) -> (seconds: Int64, nanoseconds: Int32)? {
        // yyyy-mm-ddThh:mm:ss
        guard bytes.count >= 20 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard bytes[index] >= 0x30, bytes[index] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), bytes[4] == UInt8(ascii: "-"), let month = number(5..<7),
            bytes[7] == UInt8(ascii: "-"), let day = number(8..<10),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            let hour = number(11..<13), bytes[13] == UInt8(ascii: ":"), let minute = number(14..<16),
            bytes[16] == UInt8(ascii: ":"), let second = number(17..<19)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= CivilCalendar.daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }

        var index = 19
        var nanoseconds = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                guard digits < 9 else { return nil }
                nanoseconds = nanoseconds * 10 + Int(bytes[index] - 0x30)
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<9 { nanoseconds *= 10 }
        }

        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count, let offsetHours = number(index + 1..<index + 3),
                bytes[index + 3] == UInt8(ascii: ":"), let offsetMinutes = number(index + 4..<index + 6),
                offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offset = (offsetHours * 60 + offsetMinutes) * 60 * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        default:
            return nil
        }
        guard index == bytes.count else { return nil }

        let days = CivilCalendar.days(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        return (seconds, Int32(nanoseconds))
    }

}

extension Int64 {
    /// Division rounding toward negative infinity.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
