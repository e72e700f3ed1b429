import Foundation

/// How a query runs: what SQL can select and order, and what must happen in memory.
///
/// Rules (FINANCEKIT-API.md §2.4): the predicate, then the sort, then the offset, then the limit.
/// When the whole predicate and every sort key have an SQL form, all four run in SQL. Otherwise
/// SQL selects with the parts of a top-level `&&` it can express (a superset of the answer), and
/// the predicate, the sort, the offset and the limit are applied in memory to what it returns.
/// Ties are always broken by id, so both ways return the same rows in the same order.
struct QueryPlan {
    /// SQL selecting a superset of the rows (exactly them when `exact`).
    var filter: SQLFragment
    /// Whether `filter` is the whole predicate.
    var exact: Bool
    /// `ORDER BY` terms (ending with `id`), when every sort key has a column.
    var order: [String]?

    /// Whether anything must run in memory after SQL.
    var needsMemory: Bool { !exact || order == nil }

    static func make<Model>(
        predicate: Predicate<Model>?, sort: [SortDescriptor<Model>], defaultOrder: [String], map: ColumnMap
    ) -> QueryPlan {
        let order = sortOrder(sort, defaultOrder: defaultOrder, map: map)
        guard let predicate else { return QueryPlan(filter: .true, exact: true, order: order) }
        let context = TranslationContext(map: map)
        if let sql = condition(predicate.expression, context) {
            return QueryPlan(filter: sql, exact: true, order: order)
        }
        let parts = conjuncts(predicate.expression).compactMap { condition($0, context) }
        return QueryPlan(filter: .and(parts), exact: false, order: order)
    }

    /// The SQL form of one boolean node, if it has one.
    private static func condition(_ node: Any, _ context: TranslationContext) -> SQLFragment? {
        switch (node as? any SQLTranslatable)?.sqlTerm(in: context) {
        case .condition(let sql, false)?: sql
        case .constant(let value)?: (SQLBuilder.unwrap(value) as? Bool).map { $0 ? .true : .false }
        default: nil
        }
    }

    private static func conjuncts(_ node: Any) -> [Any] {
        guard let conjunction = node as? any PredicateConjunctionNode else { return [node] }
        return conjunction.parts.flatMap(conjuncts)
    }

    private static func sortOrder<Model>(_ sort: [SortDescriptor<Model>], defaultOrder: [String], map: ColumnMap) -> [String]? {
        guard !sort.isEmpty else { return defaultOrder }
        var terms: [String] = []
        for descriptor in sort {
            guard let keyPath = descriptor.keyPath, let column = map.sortKeys[AnyKeyPathBox(keyPath)] else { return nil }
            // SQLite sorts NULL first ascending and last descending, as Swift sorts nil.
            terms.append("\(column.name) \(descriptor.order == .forward ? "ASC" : "DESC")")
        }
        return terms + ["id ASC"]
    }
}

/// Sorting in memory exactly as the SQL plan would: by the descriptors (or the default order),
/// ties broken by id.
enum MemorySort {
    static func sorted<Model: Identifiable>(
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

    static func page<Element>(_ elements: [Element], offset: Int?, limit: Int?) -> [Element] {
        let start = min(max(0, offset ?? 0), elements.count)
        let end = limit.map { min(start + max(0, $0), elements.count) } ?? elements.count
        return Array(elements[start..<end])
    }
}
