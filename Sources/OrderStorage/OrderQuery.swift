import OrderPackage
import WalletPrimitives

/// Filters and a page for listing stored orders. Results are sorted by `updatedAt`, newest first,
/// then by identifier, so pages are stable.
///
/// ```swift
/// var query = OrderQuery(orderTypeIdentifier: "order.com.example.shop", status: "open")
/// query.limit = 50
/// let firstPage = try await store.orders(matching: query)
/// query.offset = 50
/// let secondPage = try await store.orders(matching: query)
/// ```
public struct OrderQuery: Sendable, Hashable {
    public var orderTypeIdentifier: String?
    /// Only orders of one of these types, when set (an empty set matches nothing): a client's
    /// entitled types.
    public var orderTypeIdentifiers: Set<String>?
    /// `open`, `completed` or `cancelled`.
    public var status: String?
    /// Only orders whose `updatedAt` is at or after this instant, compared to the microsecond.
    public var updatedSince: RFC3339Timestamp?
    /// Only orders whose order identifier, merchant display name or merchant identifier contains
    /// this text, ignoring the case of ASCII letters (an operator's search box; at most
    /// ``maximumTextLength`` bytes are used).
    public var text: String?
    public var limit: Int
    public var offset: Int

    /// The longest ``text`` searched for.
    public static let maximumTextLength = 200

    public init(
        orderTypeIdentifier: String? = nil, status: String? = nil, updatedSince: RFC3339Timestamp? = nil, limit: Int = 100,
        offset: Int = 0, text: String? = nil
    ) {
        self.orderTypeIdentifier = orderTypeIdentifier
        self.status = status
        self.updatedSince = updatedSince
        self.limit = limit
        self.offset = offset
        self.text = text
    }
}
