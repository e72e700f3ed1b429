import FinanceData
import Foundation
import WalletPrimitives

/// A statement argument, in the values every SQL backend binds.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)
    case blob(Data)

    package init(_ value: StoredValue) {
        switch value {
        case .integer(let integer): self = .integer(integer)
        case .text(let text): self = .text(text)
        }
    }

    /// An instant, in microseconds since 1970 (``WalletPrimitives/Microseconds``).
    package static func instant(_ date: Date) -> SQLValue { .integer(Microseconds.since1970(date)) }

    /// An optional instant; NULL when absent.
    package static func instant(_ date: Date?) -> SQLValue { date.map(instant) ?? .null }

    /// Optional text; NULL when absent.
    package static func text(_ text: String?) -> SQLValue { text.map(SQLValue.text) ?? .null }
}
