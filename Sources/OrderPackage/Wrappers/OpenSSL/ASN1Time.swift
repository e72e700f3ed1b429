import COpenSSL
import Foundation

/// Conversions between OpenSSL's `ASN1_TIME` and `Date`.
enum ASN1Time {
    /// The instant an `ASN1_TIME` (UTCTime or GeneralizedTime) names, or nil if it is malformed.
    static func date(from time: UnsafePointer<ASN1_TIME>) -> Date? {
        var components = tm()
        guard ASN1_TIME_to_tm(time, &components) == 1 else { return nil }
        let seconds = timegm(&components)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Seconds since 1970 for OpenSSL's `time_t` parameters, truncated toward the past.
    static func epochSeconds(_ date: Date) -> time_t {
        time_t(date.timeIntervalSince1970.rounded(.down))
    }
}
