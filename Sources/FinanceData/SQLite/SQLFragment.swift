import GRDB

/// A piece of SQL with its arguments, composed by query translation and grant filtering.
public struct SQLFragment: Sendable {
    public var sql: String
    public var arguments: StatementArguments

    public init(_ sql: String, _ arguments: StatementArguments = []) {
        self.sql = sql
        self.arguments = arguments
    }

    public static let `true` = SQLFragment("1")
    public static let `false` = SQLFragment("0")

    /// `(a) AND (b) AND …`; `true` for none.
    public static func and(_ parts: [SQLFragment]) -> SQLFragment {
        join(parts, "AND", empty: .true)
    }

    /// `(a) OR (b) OR …`; `false` for none.
    public static func or(_ parts: [SQLFragment]) -> SQLFragment {
        join(parts, "OR", empty: .false)
    }

    public static func not(_ part: SQLFragment) -> SQLFragment {
        SQLFragment("NOT (\(part.sql))", part.arguments)
    }

    private static func join(_ parts: [SQLFragment], _ keyword: String, empty: SQLFragment) -> SQLFragment {
        guard parts.count > 1 else { return parts.first ?? empty }
        var arguments: StatementArguments = []
        for part in parts { arguments += part.arguments }
        return SQLFragment(parts.map { "(\($0.sql))" }.joined(separator: " \(keyword) "), arguments)
    }
}
