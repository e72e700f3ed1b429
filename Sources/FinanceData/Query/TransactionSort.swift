import Foundation

/// A transaction sort as text says it — `FIELD` or `FIELD:desc` — for the CLI's `--sort` and the
/// data API's `sort=`: one reading for both. A server addition.
///
/// ```swift
/// let sort = try TransactionSort("transactionDate:desc")
/// let query = TransactionQuery(sortDescriptors: sort.descriptors, limit: 50)
/// ```
public struct TransactionSort: Sendable, Hashable {
    /// The fields one can sort by, in the order they are listed to people.
    public static let fields = ["effectiveDate", "transactionDate", "postedDate", "amount", "merchantName"]

    /// One of ``fields``.
    public let field: String
    /// Whether the smallest value comes first (`FIELD`, `FIELD:asc`) or last (`FIELD:desc`).
    public let ascending: Bool

    /// Why a text is not a sort: the ending, or the field.
    public enum Problem: Error, Sendable, Hashable {
        case notAnOrder(String)
        case unknownField(String)
    }

    /// Reads `FIELD`, `FIELD:asc` or `FIELD:desc`.
    public init(_ text: String) throws(Problem) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let name = parts.first else { throw .unknownField(text) }
        switch parts.count > 1 ? parts[1] : "asc" {
        case "asc": ascending = true
        case "desc": ascending = false
        default: throw .notAnOrder(text)
        }
        guard Self.fields.contains(name) else { throw .unknownField(name) }
        field = name
    }

    /// The sort as the query takes it.
    public var descriptors: [SortDescriptor<Transaction>] {
        let order: SortOrder = ascending ? .forward : .reverse
        switch field {
        case "transactionDate": return [SortDescriptor(\.transactionDate, order: order)]
        case "postedDate": return [SortDescriptor(\.postedDate, order: order)]
        case "amount": return [SortDescriptor(\.transactionAmount.amount, order: order)]
        case "merchantName": return [SortDescriptor(\.merchantName, order: order)]
        default: return [SortDescriptor(\.effectiveDate, order: order)]
        }
    }
}
