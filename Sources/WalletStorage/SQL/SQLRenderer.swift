import FinanceData

/// Renders the dialect-neutral filters and orderings of FinanceData (``FinanceData/StoredFilter``)
/// in one backend's SQL, collecting the arguments in order.
///
/// ```swift
/// var renderer = SQLRenderer(dialect: SQLiteDialect())
/// let condition = renderer.condition(plan.filter)   // "(accountID = ?) AND (status IS ?)"
/// let arguments = renderer.arguments
/// ```
package struct SQLRenderer {
    package let dialect: any SQLDialect
    /// The arguments of everything rendered so far, in placeholder order.
    package private(set) var arguments: [SQLValue] = []

    package init(dialect: any SQLDialect, arguments: [SQLValue] = []) {
        self.dialect = dialect
        self.arguments = arguments
    }

    /// A placeholder for `value`, recorded as the next argument.
    package mutating func bind(_ value: SQLValue) -> String {
        arguments.append(value)
        return dialect.placeholder(arguments.count)
    }

    package mutating func condition(_ filter: StoredFilter) -> String {
        switch filter {
        case .constant(let value):
            return value ? dialect.trueLiteral : dialect.falseLiteral
        case .and(let parts):
            return join(parts, "AND", empty: dialect.trueLiteral)
        case .or(let parts):
            return join(parts, "OR", empty: dialect.falseLiteral)
        case .not(let inner):
            return "NOT (\(condition(inner)))"
        case .equals(let expression, nil):
            return "\(self.expression(expression)) IS NULL"
        case .equals(let expression, let value?):
            let left = self.expression(expression)
            return dialect.nullSafeEqual(left, bind(SQLValue(value)))
        case .equalExpressions(let lhs, let rhs):
            return dialect.nullSafeEqual(expression(lhs), expression(rhs))
        case .compare(let expression, let comparison, let value):
            let left = self.expression(expression)
            return "\(left) \(Self.symbol(comparison)) \(bind(SQLValue(value)))"
        case .compareExpressions(let lhs, let comparison, let rhs):
            return "\(expression(lhs)) \(Self.symbol(comparison)) \(expression(rhs))"
        case .containsText(let expressions, let needle):
            return dialect.containsText(expressions.map { self.expression($0) }) { bind(.text(needle)) }
        }
    }

    package func expression(_ expression: StoredExpression) -> String {
        switch expression {
        case .column(let name, let avoidingIndex): avoidingIndex ? dialect.avoidingIndex(name) : name
        case .coalesce(let columns): "COALESCE(\(columns.joined(separator: ", ")))"
        }
    }

    /// `a ASC, b DESC NULLS LAST, …`.
    package func ordering(_ terms: [StoredOrdering]) -> String {
        terms.map { dialect.orderTerm($0.column, ascending: $0.ascending, nullsFirst: $0.nullsFirst) }.joined(separator: ", ")
    }

    /// `LIMIT … OFFSET …`, with the dialect's "no limit" when `limit` is nil.
    package mutating func limit(_ limit: Int?, offset: Int?) -> String {
        let count = limit.map { SQLValue.integer(Int64(max(0, $0))) } ?? dialect.unlimited
        return "LIMIT \(bind(count)) OFFSET \(bind(.integer(Int64(max(0, offset ?? 0)))))"
    }

    private mutating func join(_ parts: [StoredFilter], _ keyword: String, empty: String) -> String {
        guard parts.count > 1 else { return parts.first.map { condition($0) } ?? empty }
        var rendered: [String] = []
        for part in parts { rendered.append("(\(condition(part)))") }
        return rendered.joined(separator: " \(keyword) ")
    }

    private static func symbol(_ comparison: StoredComparison) -> String {
        switch comparison {
        case .equal: "="
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqual: ">="
        }
    }
}
