import WalletPrimitives

/// What ``OrderStore/containsOrder(matching:updatedDate:)`` found, with FinanceKit's names.
public enum ContainsOrderResult: String, CaseIterable, Hashable, Sendable, Codable {
    /// The stored version has the given `updatedAt` (or no date was given and a version exists).
    case exists
    /// The stored version is newer than the given date.
    case newerExists
    /// The stored version is older than the given date.
    case olderExists
    /// No version of the order is stored.
    case notFound
}

extension ContainsOrderResult {
    /// The answer for a stored version's `updatedAt` (nil: nothing stored) compared exactly with
    /// `updatedAt` (nil: no date given), for callers that already hold the stored version.
    ///
    /// ```swift
    /// let stored = try await store.order(id)
    /// let result = ContainsOrderResult(stored: stored?.updatedAt, comparedWith: asked)
    /// ```
    public init(stored: RFC3339Timestamp?, comparedWith updatedAt: RFC3339Timestamp?) {
        guard let stored else {
            self = .notFound
            return
        }
        guard let updatedAt, stored != updatedAt else {
            self = .exists
            return
        }
        self = stored > updatedAt ? .newerExists : .olderExists
    }
}
