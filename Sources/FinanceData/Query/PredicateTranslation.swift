import Foundation

// Conformances that give predicate expression nodes an SQL form. A node whose children have no
// SQL form has none either; the query then evaluates the predicate in memory.

extension PredicateExpressions.Variable: SQLTranslatable {
    func sqlTerm(in context: TranslationContext) -> SQLTerm? {
        if let bound = context.bindings[key] { return bound }
        // The predicate's own variable is the only one whose type is the model: flatMap
        // variables (bound above) have the type of the unwrapped value.
        return Output.self == context.map.model ? .path(ColumnMap.Path(components: [])) : nil
    }
}

extension PredicateExpressions.KeyPath: SQLTranslatable where Root: SQLTranslatable {
    func sqlTerm(in context: TranslationContext) -> SQLTerm? {
        guard case .path(let base)? = root.sqlTerm(in: context) else { return nil }
        let path = base.appending(keyPath)
        if let column = context.map.columns[path] { return .column(column) }
        return .path(path)
    }
}

extension PredicateExpressions.Value: SQLTranslatable {
    func sqlTerm(in context: TranslationContext) -> SQLTerm? {
        .constant(value)
    }
}

extension PredicateExpressions.NilLiteral: SQLTranslatable {
    func sqlTerm(in context: TranslationContext) -> SQLTerm? {
        .constant(nil)
    }
}

extension PredicateExpressions.Equal: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func sqlTerm(in context: TranslationContext) -> SQLTerm? {
        guard let left = lhs.sqlTerm(in: context), let right = rhs.sqlTerm(in: context),
            let sql = SQLBuilder.equal(left, right)
        else { return nil }
        return .condition(sql, nullable: false)
    }
}

extension PredicateExpressions.NotEqual: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func sqlTerm(in context: TranslationContext) -> SQLTerm? {
        guard let left = lhs.sqlTerm(in: context), let right = rhs.sqlTerm(in: context),
            let sql = SQLBuilder.equal(left, right)
        else { return nil }
        return .condition(.not(sql), nullable: false)
    }
}

extension PredicateExpressions.Comparison: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func sqlTerm(in context: TranslationContext) -> SQLTerm? {
        guard let left = lhs.sqlTerm(in: context), let right = rhs.sqlTerm(in: context),
            let sql = SQLBuilder.compare(left, op, right)
        else { return nil }
        return .condition(sql, nullable: false)
    }
}

extension PredicateExpressions.Conjunction: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func sqlTerm(in context: TranslationContext) -> SQLTerm? {
        guard case .condition(let left, false)? = lhs.sqlTerm(in: context),
            case .condition(let right, false)? = rhs.sqlTerm(in: context)
        else { return nil }
        return .condition(.and([left, right]), nullable: false)
    }
}

extension PredicateExpressions.Disjunction: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func sqlTerm(in context: TranslationContext) -> SQLTerm? {
        guard case .condition(let left, false)? = lhs.sqlTerm(in: context),
            case .condition(let right, false)? = rhs.sqlTerm(in: context)
        else { return nil }
        return .condition(.or([left, right]), nullable: false)
    }
}

extension PredicateExpressions.Negation: SQLTranslatable where Wrapped: SQLTranslatable {
    func sqlTerm(in context: TranslationContext) -> SQLTerm? {
        guard case .condition(let inner, false)? = wrapped.sqlTerm(in: context) else { return nil }
        return .condition(.not(inner), nullable: false)
    }
}

extension PredicateExpressions.SequenceContains: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func sqlTerm(in context: TranslationContext) -> SQLTerm? {
        guard let values = sequence.sqlTerm(in: context), let member = element.sqlTerm(in: context),
            let sql = SQLBuilder.contains(values, member)
        else { return nil }
        return .condition(sql, nullable: false)
    }
}

extension PredicateExpressions.OptionalFlatMap: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    /// `optional.flatMap { … }`: the body runs only where the optional part exists; elsewhere the
    /// result is nil (SQL NULL), which a following `?? default` turns into a value.
    func sqlTerm(in context: TranslationContext) -> SQLTerm? {
        let presence: String
        let bound: SQLTerm
        switch wrapped.sqlTerm(in: context) {
        case .path(let path)?:
            guard let condition = context.map.optionalParts[path] else { return nil }
            presence = condition
            bound = .path(path)
        case .column(var column)? where column.nullable:
            presence = "\(column.name) IS NOT NULL"
            column.nullable = false
            bound = .column(column)
        default:
            return nil
        }
        let previous = context.bindings[variable.key]
        context.bindings[variable.key] = bound
        defer { context.bindings[variable.key] = previous }
        guard case .condition(let body, false)? = transform.sqlTerm(in: context) else { return nil }
        return .condition(SQLFragment("CASE WHEN \(presence) THEN (\(body.sql)) END", body.arguments), nullable: true)
    }
}

extension PredicateExpressions.NilCoalesce: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func sqlTerm(in context: TranslationContext) -> SQLTerm? {
        switch (lhs.sqlTerm(in: context), rhs.sqlTerm(in: context)) {
        case (.condition(let condition, _)?, .constant(let value)?):
            guard let fallback = SQLBuilder.unwrap(value) as? Bool else { return nil }
            return .condition(
                SQLFragment("COALESCE(\(condition.sql), \(fallback ? 1 : 0))", condition.arguments), nullable: false)
        case (.column(let first)?, .column(let second)?) where first.kind == .date && second.kind == .date && first.nullable:
            return .coalescedDates([first, second])
        case (.column(let first)?, .coalescedDates(let rest)?) where first.kind == .date && first.nullable:
            return .coalescedDates([first] + rest)
        default:
            return nil
        }
    }
}

/// Lets a query split `a && b && c` at the top, translating each part on its own.
protocol PredicateConjunctionNode {
    var parts: [Any] { get }
}

extension PredicateExpressions.Conjunction: PredicateConjunctionNode {
    var parts: [Any] { [lhs, rhs] }
}
