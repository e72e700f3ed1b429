import Foundation
import WalletPrimitives

/// What a translated subexpression of a `Predicate` is in stored terms.
indirect enum StoredTerm {
    /// A model, or a part of it, that is not a column: the root (`[]`), `$0.transactionAmount`.
    case path(ColumnMap.Path)
    /// An indexed column.
    case column(ColumnMap.Column)
    /// The first non-NULL of these date columns (`$0.postedDate ?? $0.transactionDate`).
    case coalescedDates([ColumnMap.Column])
    /// A value from Swift: a captured constant, a literal, or nil.
    case constant(Any?)
    /// A boolean condition, never NULL.
    case condition(StoredFilter)
    /// The body of an optional `flatMap`: `body` where `presence` holds, nil elsewhere. Only a
    /// following `?? default` can use it.
    case optionalCondition(presence: StoredFilter, body: StoredFilter)
}

/// State while translating one predicate: the columns, and the variables optional `flatMap`s bind.
final class TranslationContext {
    let map: ColumnMap
    var bindings: [PredicateExpressions.VariableID: StoredTerm] = [:]

    init(map: ColumnMap) {
        self.map = map
    }
}

/// A predicate expression node that may have a stored form.
protocol StoredTranslatable {
    /// The node in stored terms, or nil when it has none (it is then evaluated in memory).
    func storedTerm(in context: TranslationContext) -> StoredTerm?
}

/// Building filters that select exactly the rows Swift's operators would.
enum StoredFilterBuilder {
    /// `a == b`. NULL-safe, so that `nil == nil` holds and the result is never NULL.
    static func equal(_ lhs: StoredTerm, _ rhs: StoredTerm) -> StoredFilter? {
        switch (lhs, rhs) {
        case (.column(let column), .constant(let value)), (.constant(let value), .column(let column)):
            return equal(.column(column.name), kind: column.kind, nullable: column.nullable, to: value)
        case (.coalescedDates(let columns), .constant(let value)), (.constant(let value), .coalescedDates(let columns)):
            return equal(.coalesce(columns.map(\.name)), kind: .date, nullable: columns.allSatisfy(\.nullable), to: value)
        case (.column(let left), .column(let right)) where left.kind == right.kind:
            return .equalExpressions(.column(left.name), .column(right.name))
        default:
            return nil
        }
    }

    /// `lhs op rhs` for dates (the only ordered columns).
    static func compare(_ lhs: StoredTerm, _ op: PredicateExpressions.ComparisonOperator, _ rhs: StoredTerm) -> StoredFilter? {
        switch (lhs, rhs) {
        case (_, .constant(let value)):
            guard let date = unwrap(value) as? Date, let expression = nonNullDateExpression(lhs) else { return nil }
            return compare(expression, op, date)
        case (.constant, _):
            return compare(rhs, flipped(op), lhs)
        default:
            guard let left = nonNullDateExpression(lhs), let right = nonNullDateExpression(rhs),
                let comparison = comparison(op)
            else { return nil }
            return .compareExpressions(left, comparison, right)
        }
    }

    /// `sequence.contains(element)` for a constant sequence. Every member must be expressible,
    /// or the whole expression is left to memory: dropping one would change the result.
    static func contains(_ sequence: StoredTerm, _ element: StoredTerm) -> StoredFilter? {
        guard case .constant(let value) = sequence, let values = unwrap(value) as? any Sequence else { return nil }
        var parts: [StoredFilter] = []
        for member in elements(of: values) {
            guard let part = equal(element, .constant(member)) else { return nil }
            parts.append(part)
        }
        return .any(parts)
    }

    // MARK: - Pieces

    private static func equal(
        _ expression: StoredExpression, kind: ColumnMap.Kind, nullable: Bool, to value: Any?
    ) -> StoredFilter? {
        guard let value = unwrap(value) else { return nullable ? .equals(expression, nil) : .never }
        if kind == .date {
            guard let date = value as? Date else { return nil }
            let from = Microseconds.threshold(near: date) { $0 >= date }
            let to = Microseconds.threshold(near: date) { $0 > date }
            return .all(
                (nullable ? [.present(expression)] : [])
                    + [.compare(expression, .greaterThanOrEqual, .integer(from)), .compare(expression, .lessThan, .integer(to))])
        }
        guard let encoded = encode(value, as: kind) else { return nil }
        return .equals(expression, encoded)
    }

    private static func compare(
        _ expression: StoredExpression, _ op: PredicateExpressions.ComparisonOperator, _ date: Date
    ) -> StoredFilter {
        // date(m) < c ⇔ m < first(m: date(m) ≥ c); date(m) ≤ c ⇔ m < first(m: date(m) > c).
        let atOrAfter = Microseconds.threshold(near: date) { $0 >= date }
        let after = Microseconds.threshold(near: date) { $0 > date }
        switch op {
        case .lessThan: return .compare(expression, .lessThan, .integer(atOrAfter))
        case .lessThanOrEqual: return .compare(expression, .lessThan, .integer(after))
        case .greaterThan: return .compare(expression, .greaterThanOrEqual, .integer(after))
        case .greaterThanOrEqual: return .compare(expression, .greaterThanOrEqual, .integer(atOrAfter))
        @unknown default: return .never
        }
    }

    private static func nonNullDateExpression(_ term: StoredTerm) -> StoredExpression? {
        switch term {
        case .column(let column) where column.kind == .date && !column.nullable: .column(column.name)
        case .coalescedDates(let columns) where !columns.allSatisfy(\.nullable): .coalesce(columns.map(\.name))
        default: nil
        }
    }

    private static func encode(_ value: Any, as kind: ColumnMap.Kind) -> StoredValue? {
        switch kind {
        case .uuid: (value as? UUID).map { .text($0.uuidString) }
        case .text: (value as? String).map { .text(TextKey.normalized($0)) }
        case .code: ((value as? any RawRepresentable)?.rawValue as? Int16).map { .integer(Int64($0)) }
        case .date: nil
        }
    }

    private static func comparison(_ op: PredicateExpressions.ComparisonOperator) -> StoredComparison? {
        switch op {
        case .lessThan: .lessThan
        case .lessThanOrEqual: .lessThanOrEqual
        case .greaterThan: .greaterThan
        case .greaterThanOrEqual: .greaterThanOrEqual
        @unknown default: nil
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
