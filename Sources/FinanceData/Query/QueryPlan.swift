import Foundation

/// How a query runs: what storage can select and order, and what must happen in memory.
///
/// Rules (docs/financekit-semantics.md §4): the predicate, then the sort, then the offset, then the limit.
/// When the whole predicate and every sort key have a stored form, all four run in the backend.
/// Otherwise the backend selects with the parts of a top-level `&&` it can express (a superset of
/// the answer), and the predicate, the sort, the offset and the limit are applied in memory to what
/// it returns. Ties are always broken by id, so both ways return the same rows in the same order.
package struct QueryPlan: Sendable {
    /// Selects a superset of the rows (exactly them when ``exact``).
    package var filter: StoredFilter
    /// Whether ``filter`` is the whole predicate.
    package var exact: Bool
    /// The ordering (ending with `id`), when every sort key has a column.
    package var order: [StoredOrdering]?

    /// Whether anything must run in memory after the backend.
    package var needsMemory: Bool { !exact || order == nil }

    package init(filter: StoredFilter, exact: Bool, order: [StoredOrdering]?) {
        self.filter = filter
        self.exact = exact
        self.order = order
    }

    /// Everything in memory: what tests compare the stored path with.
    package static let inMemory = QueryPlan(filter: .always, exact: false, order: nil)

    static func make<Model>(
        predicate: Predicate<Model>?, sort: [SortDescriptor<Model>], defaultOrder: [StoredOrdering], map: ColumnMap
    ) -> QueryPlan {
        let order = sortOrder(sort, defaultOrder: defaultOrder, map: map)
        guard let predicate else { return QueryPlan(filter: .always, exact: true, order: order) }
        let context = TranslationContext(map: map)
        if let filter = condition(predicate.expression, context) {
            return QueryPlan(filter: filter, exact: true, order: order)
        }
        let parts = conjuncts(predicate.expression).compactMap { condition($0, context) }
        return QueryPlan(filter: .all(parts), exact: false, order: order)
    }

    /// The stored form of one boolean node, if it has one.
    private static func condition(_ node: Any, _ context: TranslationContext) -> StoredFilter? {
        switch (node as? any StoredTranslatable)?.storedTerm(in: context) {
        case .condition(let filter)?: filter
        case .constant(let value)?: (StoredFilterBuilder.unwrap(value) as? Bool).map { .constant($0) }
        default: nil
        }
    }

    private static func conjuncts(_ node: Any) -> [Any] {
        guard let conjunction = node as? any PredicateConjunctionNode else { return [node] }
        return conjunction.parts.flatMap(conjuncts)
    }

    private static func sortOrder<Model>(
        _ sort: [SortDescriptor<Model>], defaultOrder: [StoredOrdering], map: ColumnMap
    ) -> [StoredOrdering]? {
        guard !sort.isEmpty else { return defaultOrder }
        var terms: [StoredOrdering] = []
        for descriptor in sort {
            guard let keyPath = descriptor.keyPath, let column = map.sortKeys[AnyKeyPathBox(keyPath)] else { return nil }
            // Swift sorts nil first in forward order and last in reverse.
            terms.append(StoredOrdering(column.name, ascending: descriptor.order == .forward))
        }
        return terms + [StoredOrdering("id")]
    }
}

/// Sorting in memory exactly as the SQL plan would: by the descriptors (or the default order),
/// ties broken by id.
package enum MemorySort {
    package static func sorted<Model: Identifiable>(
        _ models: [Model], by descriptors: [SortDescriptor<Model>], default defaultOrder: (Model, Model) -> ComparisonResult
    ) -> [Model] where Model.ID == UUID {
        models.sorted { a, b in
            let primary: ComparisonResult
            if descriptors.isEmpty {
                primary = defaultOrder(a, b)
            } else {
                primary = descriptors.lazy.map { $0.compare(a, b) }.first { $0 != .orderedSame } ?? .orderedSame
            }
            if primary != .orderedSame { return primary == .orderedAscending }
            return a.id.uuidString < b.id.uuidString
        }
    }

    package static func page<Element>(_ elements: [Element], offset: Int?, limit: Int?) -> [Element] {
        let start = min(max(0, offset ?? 0), elements.count)
        let end = limit.map { min(start + max(0, $0), elements.count) } ?? elements.count
        return Array(elements[start..<end])
    }
}
