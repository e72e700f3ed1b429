import Foundation

/// How the store writes instants: whole microseconds since 1970, as a sortable integer.
///
/// Every module converts through these two functions, so a `Date` read back from the store is
/// always exactly `date(microseconds)`. Query translation relies on that: it turns a comparison
/// with a `Date` into a comparison of integers that selects exactly the rows the same comparison
/// selects in memory.
public enum Microseconds {
    /// Microseconds since 1970, rounded to the nearest.
    ///
    /// Nearest, not down: `since1970(date(m)) == m` must hold for every stored `m`, and a `Date`
    /// built from `m` may sit a fraction of a microsecond below it (a `Date` resolves today's
    /// instants to ~0.12 µs). RFC 3339 text, which is exact, is converted by truncation instead
    /// (`RFC3339Timestamp.microsecondsSinceEpoch`).
    public static func since1970(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// The `Date` the store hands out for a stored integer.
    public static func date(_ microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(microseconds) / 1_000_000)
    }

    /// The smallest stored integer whose ``date(_:)`` satisfies `isAtOrAfter` (which must flip
    /// from false to true exactly once as the integer grows). Used to turn `date(m) < c` into
    /// `m < threshold`.
    public static func threshold(near guess: Date, where isAtOrAfter: (Date) -> Bool) -> Int64 {
        var candidate = since1970(guess)
        while isAtOrAfter(date(candidate)) { candidate -= 1 }
        while !isAtOrAfter(date(candidate)) { candidate += 1 }
        return candidate
    }
}
