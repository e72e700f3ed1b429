import Foundation

// Conformances that give predicate expression nodes a stored form (StoredFilter). A node whose
// children have none has none either; the query then evaluates the predicate in memory.

extension PredicateExpressions.Variable: StoredTranslatable {
    func storedTerm(in context: TranslationContext) -> StoredTerm? {
        if let bound = context.bindings[key] { return bound }
        // The predicate's own variable is the only one whose type is the model: flatMap
        // variables (bound above) have the type of the unwrapped value.
        return Output.self == context.map.model ? .path(ColumnMap.Path(components: [])) : nil
    }
}

extension PredicateExpressions.KeyPath: StoredTranslatable where Root: StoredTranslatable {
    func storedTerm(in context: TranslationContext) -> StoredTerm? {
        guard case .path(let base)? = root.storedTerm(in: context) else { return nil }
        let path = base.appending(keyPath)
        if let column = context.map.columns[path] { return .column(column) }
        return .path(path)
    }
}

extension PredicateExpressions.Value: StoredTranslatable {
    func storedTerm(in context: TranslationContext) -> StoredTerm? {
        .constant(value)
    }
}

extension PredicateExpressions.NilLiteral: StoredTranslatable {
    func storedTerm(in context: TranslationContext) -> StoredTerm? {
        .constant(nil)
    }
}

extension PredicateExpressions.Equal: StoredTranslatable where LHS: StoredTranslatable, RHS: StoredTranslatable {
    func storedTerm(in context: TranslationContext) -> StoredTerm? {
        guard let left = lhs.storedTerm(in: context), let right = rhs.storedTerm(in: context),
            let filter = StoredFilterBuilder.equal(left, right)
        else { return nil }
        return .condition(filter)
    }
}

extension PredicateExpressions.NotEqual: StoredTranslatable where LHS: StoredTranslatable, RHS: StoredTranslatable {
    func storedTerm(in context: TranslationContext) -> StoredTerm? {
        guard let left = lhs.storedTerm(in: context), let right = rhs.storedTerm(in: context),
            let filter = StoredFilterBuilder.equal(left, right)
        else { return nil }
        return .condition(.not(filter))
    }
}

extension PredicateExpressions.Comparison: StoredTranslatable where LHS: StoredTranslatable, RHS: StoredTranslatable {
    func storedTerm(in context: TranslationContext) -> StoredTerm? {
        guard let left = lhs.storedTerm(in: context), let right = rhs.storedTerm(in: context),
            let filter = StoredFilterBuilder.compare(left, op, right)
        else { return nil }
        return .condition(filter)
    }
}

extension PredicateExpressions.Conjunction: StoredTranslatable where LHS: StoredTranslatable, RHS: StoredTranslatable {
    func storedTerm(in context: TranslationContext) -> StoredTerm? {
        guard case .condition(let left)? = lhs.storedTerm(in: context), case .condition(let right)? = rhs.storedTerm(in: context)
        else { return nil }
        return .condition(.all([left, right]))
    }
}

extension PredicateExpressions.Disjunction: StoredTranslatable where LHS: StoredTranslatable, RHS: StoredTranslatable {
    func storedTerm(in context: TranslationContext) -> StoredTerm? {
        guard case .condition(let left)? = lhs.storedTerm(in: context), case .condition(let right)? = rhs.storedTerm(in: context)
        else { return nil }
        return .condition(.any([left, right]))
    }
}

extension PredicateExpressions.Negation: StoredTranslatable where Wrapped: StoredTranslatable {
    func storedTerm(in context: TranslationContext) -> StoredTerm? {
        guard case .condition(let inner)? = wrapped.storedTerm(in: context) else { return nil }
        return .condition(.not(inner))
    }
}

extension PredicateExpressions.SequenceContains: StoredTranslatable where LHS: StoredTranslatable, RHS: StoredTranslatable {
    func storedTerm(in context: TranslationContext) -> StoredTerm? {
        guard let values = sequence.storedTerm(in: context), let member = element.storedTerm(in: context),
            let filter = StoredFilterBuilder.contains(values, member)
        else { return nil }
        return .condition(filter)
    }
}

extension PredicateExpressions.OptionalFlatMap: StoredTranslatable where LHS: StoredTranslatable, RHS: StoredTranslatable {
    /// `optional.flatMap { … }`: the body applies only where the optional part exists; elsewhere
    /// the result is nil, which a following `?? default` turns into a value.
    func storedTerm(in context: TranslationContext) -> StoredTerm? {
        let presence: StoredFilter
        let bound: StoredTerm
        switch wrapped.storedTerm(in: context) {
        case .path(let path)?:
            guard let condition = context.map.optionalParts[path] else { return nil }
            presence = condition
            bound = .path(path)
        case .column(var column)? where column.nullable:
            presence = .present(.column(column.name))
            column.nullable = false
            bound = .column(column)
        default:
            return nil
        }
        let previous = context.bindings[variable.key]
        context.bindings[variable.key] = bound
        defer { context.bindings[variable.key] = previous }
        guard case .condition(let body)? = transform.storedTerm(in: context) else { return nil }
        return .optionalCondition(presence: presence, body: body)
    }
}

extension PredicateExpressions.NilCoalesce: StoredTranslatable where LHS: StoredTranslatable, RHS: StoredTranslatable {
    func storedTerm(in context: TranslationContext) -> StoredTerm? {
        switch (lhs.storedTerm(in: context), rhs.storedTerm(in: context)) {
        case (.optionalCondition(let presence, let body)?, .constant(let value)?):
            // Neither part is ever NULL, so no CASE is needed: where the part is absent, the
            // default decides.
            guard let fallback = StoredFilterBuilder.unwrap(value) as? Bool else { return nil }
            return .condition(fallback ? .any([.not(presence), body]) : .all([presence, body]))
        case (.condition(let condition)?, .constant(let value)?) where StoredFilterBuilder.unwrap(value) is Bool:
            return .condition(condition)
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
