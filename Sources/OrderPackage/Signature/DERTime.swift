import Foundation
import WalletPrimitives

/// The two DER forms of a time in a signature, read without OpenSSL: UTCTime `YYMMDDHHMMSSZ`
/// (years 1950–2049) and GeneralizedTime `YYYYMMDDHHMMSSZ`, with the ranges `ASN1_TIME_to_tm`
/// enforces (month, day of that month, hour, minute, second up to 59).
enum DERTime {
    /// The instant, or nil for any other tag, form or an impossible date.
    static func date(tag: UInt8, _ text: ArraySlice<UInt8>) -> Date? {
        let digits: Int
        switch tag {
        case 0x17: digits = 12
        case 0x18: digits = 14
        default: return nil
        }
        guard text.count == digits + 1, text.last == UInt8(ascii: "Z") else { return nil }
        var values: [Int] = []
        var index = text.startIndex
        let yearDigits = digits - 10
        for width in [yearDigits, 2, 2, 2, 2, 2] {
            var value = 0
            for _ in 0..<width {
                let byte = text[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                index += 1
            }
            values.append(value)
        }
        var year = values[0]
        if tag == 0x17 { year += year < 50 ? 2000 : 1900 }
        let (month, day, hour, minute, second) = (values[1], values[2], values[3], values[4], values[5])
        guard (1...12).contains(month), day >= 1, day <= CivilCalendar.daysIn(month: month, year: year), hour < 24, minute < 60,
            second < 60
        else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(((days * 24 + hour) * 60 + minute) * 60 + second))
    }
}
