import Foundation
import GRDB
import WalletCore
import WalletPrimitives

/// What a translated subexpression of a `Predicate` is in SQL terms.
indirect enum SQLTerm {
    /// A model, or a part of it, that is not a column: the root (`[]`), `$0.transactionAmount`.
    case path(ColumnMap.Path)
    /// An indexed column.
    case column(ColumnMap.Column)
    /// `COALESCE(a, b, …)` of date columns (`$0.postedDate ?? $0.transactionDate`).
    case coalescedDates([ColumnMap.Column])
    /// A value from Swift: a captured constant, a literal, or nil.
    case constant(Any?)
    /// A boolean SQL expression. `nullable` only for the body of an optional `flatMap`, which
    /// must then be coalesced (`?? false`) before it can be combined.
    case condition(SQLFragment, nullable: Bool)
}

/// State while translating one predicate: the columns, and the variables optional `flatMap`s bind.
final class TranslationContext {
    let map: ColumnMap
    var bindings: [PredicateExpressions.VariableID: SQLTerm] = [:]

    init(map: ColumnMap) {
        self.map = map
    }
}

/// A predicate expression node that may have an SQL form.
protocol SQLTranslatable {
    /// The node in SQL terms, or nil when it has none (it is then evaluated in memory).
    func sqlTerm(in context: TranslationContext) -> SQLTerm?
}

/// Building SQL that selects exactly the rows Swift's operators would.
enum SQLBuilder {
    /// `a == b`. NULL-safe (`IS`), so that `nil == nil` holds and the result is never NULL.
    static func equal(_ lhs: SQLTerm, _ rhs: SQLTerm) -> SQLFragment? {
        switch (lhs, rhs) {
        case (.column(let column), .constant(let value)), (.constant(let value), .column(let column)):
            return equal(column.name, kind: column.kind, nullable: column.nullable, to: value)
        case (.coalescedDates(let columns), .constant(let value)), (.constant(let value), .coalescedDates(let columns)):
            return equal(coalesce(columns), kind: .date, nullable: columns.allSatisfy(\.nullable), to: value)
        case (.column(let left), .column(let right)) where left.kind == right.kind:
            return SQLFragment("\(left.name) IS \(right.name)")
        default:
            return nil
        }
    }

    /// `lhs op rhs` for dates (the only ordered columns).
    static func compare(_ lhs: SQLTerm, _ op: PredicateExpressions.ComparisonOperator, _ rhs: SQLTerm) -> SQLFragment? {
        switch (lhs, rhs) {
        case (_, .constant(let value)):
            guard let date = unwrap(value) as? Date, let sql = nonNullDateExpression(lhs) else { return nil }
            return compare(sql, op, date)
        case (.constant, _):
            return compare(rhs, flipped(op), lhs)
        default:
            guard let left = nonNullDateExpression(lhs), let right = nonNullDateExpression(rhs) else { return nil }
            return SQLFragment("\(left) \(symbol(op)) \(right)")
        }
    }

    /// `sequence.contains(element)` for a constant sequence. Every member must be expressible,
    /// or the whole expression is left to memory: dropping one would change the result.
    static func contains(_ sequence: SQLTerm, _ element: SQLTerm) -> SQLFragment? {
        guard case .constant(let value) = sequence, let values = unwrap(value) as? any Sequence else { return nil }
        var parts: [SQLFragment] = []
        for member in elements(of: values) {
            guard let part = equal(element, .constant(member)) else { return nil }
            parts.append(part)
        }
        return .or(parts)
    }

    // MARK: - Pieces

    private static func equal(_ expression: String, kind: ColumnMap.Kind, nullable: Bool, to value: Any?) -> SQLFragment? {
        guard let value = unwrap(value) else { return SQLFragment(nullable ? "\(expression) IS NULL" : "0") }
        if kind == .date {
            guard let date = value as? Date else { return nil }
            let from = Microseconds.threshold(near: date) { $0 >= date }
            let to = Microseconds.threshold(near: date) { $0 > date }
            let guardNull = nullable ? "\(expression) IS NOT NULL AND " : ""
            return SQLFragment("\(guardNull)\(expression) >= ? AND \(expression) < ?", [from, to])
        }
        guard let encoded = encode(value, as: kind) else { return nil }
        return SQLFragment("\(expression) IS ?", [encoded])
    }

    private static func compare(_ expression: String, _ op: PredicateExpressions.ComparisonOperator, _ date: Date) -> SQLFragment
    {
        // date(m) < c ⇔ m < first(m: date(m) ≥ c); date(m) ≤ c ⇔ m < first(m: date(m) > c).
        let atOrAfter = Microseconds.threshold(near: date) { $0 >= date }
        let after = Microseconds.threshold(near: date) { $0 > date }
        switch op {
        case .lessThan: return SQLFragment("\(expression) < ?", [atOrAfter])
        case .lessThanOrEqual: return SQLFragment("\(expression) < ?", [after])
        case .greaterThan: return SQLFragment("\(expression) >= ?", [after])
        case .greaterThanOrEqual: return SQLFragment("\(expression) >= ?", [atOrAfter])
        @unknown default: return SQLFragment("0")
        }
    }

    private static func nonNullDateExpression(_ term: SQLTerm) -> String? {
        switch term {
        case .column(let column) where column.kind == .date && !column.nullable: column.name
        case .coalescedDates(let columns) where !columns.allSatisfy(\.nullable): coalesce(columns)
        default: nil
        }
    }

    private static func coalesce(_ columns: [ColumnMap.Column]) -> String {
        "COALESCE(\(columns.map(\.name).joined(separator: ", ")))"
    }

    private static func encode(_ value: Any, as kind: ColumnMap.Kind) -> DatabaseValue? {
        switch kind {
        case .uuid: (value as? UUID)?.uuidString.databaseValue
        case .text: (value as? String).map { FinanceRows.normalized($0).databaseValue }
        case .code: ((value as? any RawRepresentable)?.rawValue as? Int16).map { Int64($0).databaseValue }
        case .date: nil
        }
    }

    private static func flipped(_ op: PredicateExpressions.ComparisonOperator) -> PredicateExpressions.ComparisonOperator {
        switch op {
        case .lessThan: .greaterThan
        case .lessThanOrEqual: .greaterThanOrEqual
        case .greaterThan: .lessThan
        case .greaterThanOrEqual: .lessThanOrEqual
        @unknown default: op
        }
    }

    private static func symbol(_ op: PredicateExpressions.ComparisonOperator) -> String {
        switch op {
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqual: ">="
        @unknown default: "="
        }
    }

    /// The members of a sequence as `Any` (opening the existential through a generic function,
    /// which the compiler handles where `Array(anySequence)` crashes it).
    private static func elements(of sequence: some Sequence) -> [Any] {
        sequence.map { $0 as Any }
    }

    /// The value inside an `Optional` passed as `Any`, nil for `.none`, the value itself otherwise.
    static func unwrap(_ value: Any?) -> Any? {
        guard let value else { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.flatMap { unwrap($0.value) }
    }
}
