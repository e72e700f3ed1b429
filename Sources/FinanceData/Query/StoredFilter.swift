/// A condition over the stored columns of financial data, in no SQL dialect: what predicate
/// translation and grant filtering produce, and what each storage backend renders in its own SQL
/// (`WalletStorage.SQLRenderer`).
///
/// Column names are the logical columns every backend's schema has (`accountID`,
/// `transactionDate`, `merchantNameKey`, …). Values are already in their stored form: dates as
/// microseconds since 1970, ids as `uuidString`, enums as their integer raw values, text keys
/// NFC-normalized (``TextKey``).
package indirect enum StoredFilter: Sendable, Hashable {
    case constant(Bool)
    case and([StoredFilter])
    case or([StoredFilter])
    case not(StoredFilter)
    /// NULL-safe equality: true when both are equal or both NULL, never NULL itself.
    case equals(StoredExpression, StoredValue?)
    /// NULL-safe equality of two expressions.
    case equalExpressions(StoredExpression, StoredExpression)
    /// `expression op value`, for expressions that are never NULL.
    case compare(StoredExpression, StoredComparison, StoredValue)
    /// `lhs op rhs`, for expressions that are never NULL.
    case compareExpressions(StoredExpression, StoredComparison, StoredExpression)
    /// Some expression's text contains the needle, ASCII letters in either case (``TextSearch``);
    /// NULL reads as empty. The needle is already ``TextSearch/needle(_:)``'s form.
    case containsText([StoredExpression], String)

    package static let always = StoredFilter.constant(true)
    package static let never = StoredFilter.constant(false)

    /// `a AND b AND …`, flattened; `always` for none.
    package static func all(_ parts: [StoredFilter]) -> StoredFilter {
        let kept = parts.filter { $0 != .always }
        if kept.contains(.never) { return .never }
        return kept.count == 1 ? kept[0] : kept.isEmpty ? .always : .and(kept)
    }

    /// `a OR b OR …`, flattened; `never` for none.
    package static func any(_ parts: [StoredFilter]) -> StoredFilter {
        let kept = parts.filter { $0 != .never }
        if kept.contains(.always) { return .always }
        return kept.count == 1 ? kept[0] : kept.isEmpty ? .never : .or(kept)
    }

    /// `expression IS NOT NULL`.
    package static func present(_ expression: StoredExpression) -> StoredFilter {
        .not(.equals(expression, nil))
    }
}

/// A stored value: what a backend binds as a statement argument.
package enum StoredValue: Sendable, Hashable {
    case text(String)
    case integer(Int64)
}

/// An expression over stored columns.
package enum StoredExpression: Sendable, Hashable {
    /// A column. `avoidingIndex` asks the backend not to drive the search by this column's
    /// indexes when it can be told (SQLite's `+column`): set when another condition of the same
    /// query selects the rows far better (ids, one account's range in a history catch-up).
    case column(String, avoidingIndex: Bool = false)
    /// The first non-NULL of these columns (`postedDate ?? transactionDate`).
    case coalesce([String])
}

package enum StoredComparison: Sendable, Hashable {
    /// `=`: for expressions that are never NULL (``StoredFilter/equals(_:_:)`` is the NULL-safe one).
    case equal
    case lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual
}

/// One key of a stored ordering. NULL placement is explicit, because backends differ: SQLite
/// puts NULLs first ascending, PostgreSQL last. Swift sorts `nil` first in forward order.
package struct StoredOrdering: Sendable, Hashable {
    package var column: String
    package var ascending: Bool
    package var nullsFirst: Bool

    package init(_ column: String, ascending: Bool = true, nullsFirst: Bool? = nil) {
        self.column = column
        self.ascending = ascending
        self.nullsFirst = nullsFirst ?? ascending
    }
}
