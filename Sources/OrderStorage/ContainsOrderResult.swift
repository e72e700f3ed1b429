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
