import FinanceData
import OrderStorage

/// The `WHERE` clause of an ``OrderStorage/OrderQuery`` (its page aside), for every backend.
struct OrderFilter {
    private(set) var clause = ""
    private(set) var arguments: [SQLValue] = []
    /// Whether the text is one of few (no list of types, whose length varies).
    private(set) var isReusable = true

    /// Nil when nothing can match (a value no stored key holds, or an empty set of types).
    init?(_ query: OrderQuery, dialect: any SQLDialect) {
        var conditions: [String] = []
        if let type = query.orderTypeIdentifier {
            guard StorableText.isExact(type) else { return nil }
            conditions.append("orderTypeIdentifier = \(bind(.text(type)))")
        }
        if let types = query.orderTypeIdentifiers {
            let exact = types.filter(StorableText.isExact).sorted()
            guard !exact.isEmpty else { return nil }
            conditions.append("orderTypeIdentifier IN (\(exact.map { bind(.text($0)) }.joined(separator: ", ")))")
            isReusable = exact.count == 1
        }
        if let status = query.status {
            guard StorableText.isExact(status) else { return nil }
            conditions.append("status = \(bind(.text(status)))")
        }
        if let since = query.updatedSince {
            conditions.append("updatedAtMicroseconds >= \(bind(.integer(since.microsecondsSinceEpoch)))")
        }
        if let needle = TextSearch.needle(
            query.text.map { String(decoding: $0.utf8.prefix(OrderQuery.maximumTextLength), as: UTF8.self) })
        {
            guard StorableText.isExact(needle) else { return nil }
            let condition = dialect.containsText(["orderIdentifier", "merchantDisplayName", "merchantIdentifier"]) {
                bind(.text(needle))
            }
            conditions.append(condition)
        }
        clause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    }

    /// `$n` for `value`, recorded as the next argument.
    mutating func bind(_ value: SQLValue) -> String {
        arguments.append(value)
        return "$\(arguments.count)"
    }
}
