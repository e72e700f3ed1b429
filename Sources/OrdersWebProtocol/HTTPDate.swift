import WalletPrimitives

/// HTTP-dates (RFC 9110 §5.6.7): written as IMF-fixdate, read in all three forms a recipient must
/// accept, and — because clients of other Orders web services send them — as epoch seconds.
///
/// ```swift
/// HTTPDate.format(784_111_777)                       // "Sun, 06 Nov 1994 08:49:37 GMT"
/// HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT")  // 784111777
/// ```
///
/// Hand-written rather than through `DateFormatter`: no locale, no shared mutable formatter, and
/// a hostile header costs one pass over at most 64 bytes.
public enum HTTPDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// IMF-fixdate of whole seconds since 1970 (UTC).
    public static func format(_ secondsSinceEpoch: Int64) -> String {
        let days = secondsSinceEpoch >= 0 ? secondsSinceEpoch / 86_400 : (secondsSinceEpoch - 86_399) / 86_400
        let secondOfDay = secondsSinceEpoch - days * 86_400
        let (year, month, day) = CivilCalendar.date(fromDays: Int(days))
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        return "\(weekday), \(two(day)) \(months[month - 1]) \(four(Int64(year))) \(two(Int(secondOfDay / 3600))):"
            + "\(two(Int(secondOfDay / 60 % 60))):\(two(Int(secondOfDay % 60))) GMT"
    }

    /// Seconds since 1970 of an IMF-fixdate, RFC 850 date, asctime date, or decimal epoch
    /// seconds; nil for anything else.
    public static func parse(_ text: some StringProtocol) -> Int64? {
        let bytes = Array(text.utf8.prefix(65))
        guard !bytes.isEmpty, bytes.count <= 64 else { return nil }
        if bytes.allSatisfy({ (0x30...0x39).contains($0) }) {
            return bytes.count <= 12 ? Int64(String(decoding: bytes, as: UTF8.self)) : nil
        }
        var scanner = Scanner(bytes: bytes)
        // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"; RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT".
        if let comma = bytes.firstIndex(of: UInt8(ascii: ",")) {
            scanner.position = comma + 1
            guard scanner.skip(" "), let day = scanner.number(digits: 2) else { return nil }
            if scanner.skip(" ") {
                guard let month = scanner.month(), scanner.skip(" "), let year = scanner.number(digits: 4), scanner.skip(" ")
                else { return nil }
                return scanner.timeAndZone().flatMap { seconds(year: year, month: month, day: day, time: $0) }
            }
            guard scanner.skip("-"), let month = scanner.month(), scanner.skip("-"), let shortYear = scanner.number(digits: 2),
                scanner.skip(" ")
            else { return nil }
            // RFC 9110: a two-digit year more than 50 years in the future is in the past century.
            let year = shortYear < 70 ? 2000 + shortYear : 1900 + shortYear
            return scanner.timeAndZone().flatMap { seconds(year: year, month: month, day: day, time: $0) }
        }
        // asctime: "Sun Nov  6 08:49:37 1994".
        scanner.position = 3
        guard scanner.skip(" "), let month = scanner.month(), scanner.skip(" ") else { return nil }
        _ = scanner.skip(" ")
        guard let day = scanner.number(maximumDigits: 2), scanner.skip(" "), let time = scanner.time(), scanner.skip(" "),
            let year = scanner.number(digits: 4), scanner.atEnd
        else { return nil }
        return seconds(year: year, month: month, day: day, time: time)
    }

    private static func seconds(year: Int, month: Int, day: Int, time: Int) -> Int64? {
        guard (1...31).contains(day) else { return nil }
        return Int64(CivilCalendar.days(year: year, month: month, day: day)) * 86_400 + Int64(time)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// IMF-fixdate's year is four digits: 994 is "0994" (found by FuzzServiceRequest, whose
    /// read-back of "0994" failed when the year was written "994").
    private static func four(_ year: Int64) -> String {
        let digits = String(year.magnitude)
        return (year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func number(digits: Int) -> Int? {
            number(minimumDigits: digits, maximumDigits: digits)
        }

        mutating func number(maximumDigits: Int) -> Int? {
            number(minimumDigits: 1, maximumDigits: maximumDigits)
        }

        private mutating func number(minimumDigits: Int, maximumDigits: Int) -> Int? {
            var value = 0
            var count = 0
            while count < maximumDigits, position < bytes.count, (0x30...0x39).contains(bytes[position]) {
                value = value * 10 + Int(bytes[position] - 0x30)
                position += 1
                count += 1
            }
            return count >= minimumDigits ? value : nil
        }

        mutating func month() -> Int? {
            guard position + 3 <= bytes.count else { return nil }
            let name = String(decoding: bytes[position..<position + 3], as: UTF8.self)
            guard let index = HTTPDate.months.firstIndex(of: name) else { return nil }
            position += 3
            return index + 1
        }

        /// "HH:MM:SS" as seconds of the day (a leap second 60 is accepted, as RFC 9110 allows).
        mutating func time() -> Int? {
            guard let hour = number(digits: 2), skip(":"), let minute = number(digits: 2), skip(":"),
                let second = number(digits: 2), hour < 24, minute < 60, second <= 60
            else { return nil }
            return hour * 3600 + minute * 60 + second
        }

        mutating func timeAndZone() -> Int? {
            guard let time = time(), skip(" "), skip("G"), skip("M"), skip("T"), atEnd else { return nil }
            return time
        }
    }
}
