import ArgumentParser
import WalletPrimitives

/// A date on the command line, in one of two spellings for every command: a day (`2026-01-15`,
/// meaning that day's start in UTC) or an RFC 3339 date-time with an offset
/// (`2026-01-15T09:30:00Z`, `2026-01-15T10:30:00.5+01:00`).
///
/// Options take it through `@Option(transform: DateArgument.parse)`, so a bad date is the same
/// usage error (exit 2) whichever command and option it was given to.
enum DateArgument {
    /// What the value should look like, for help texts and errors.
    static let expected = "a day such as 2026-01-15 (its start, UTC) or an RFC 3339 date-time such as 2026-01-15T09:30:00Z"

    static func timestamp(_ text: String) -> RFC3339Timestamp? {
        if text.utf8.count == 10, let day = RFC3339Timestamp(text + "T00:00:00Z") { return day }
        return RFC3339Timestamp(text)
    }

    static func parse(_ text: String) throws -> RFC3339Timestamp {
        guard let timestamp = timestamp(text) else { throw ValidationError("expected \(expected)") }
        return timestamp
    }
}
