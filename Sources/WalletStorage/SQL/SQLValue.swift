import FinanceData
import Foundation

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
}

/// SQL text with its arguments, built by ``SQLRenderer``.
package struct SQLText: Sendable, Hashable {
    package var sql: String
    package var arguments: [SQLValue]

    package init(_ sql: String = "", _ arguments: [SQLValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}
