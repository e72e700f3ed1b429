/// What ``OrderStore/saveOrder(signedArchive:)`` did, with FinanceKit's names.
public enum SaveOrderResult: String, CaseIterable, Hashable, Sendable, Codable {
    /// The order is stored: it was new, newer than the stored version, or byte-identical to it.
    case added
    /// The consent prompt declined; nothing was written.
    case cancelled
    /// A newer version is already stored; nothing was written.
    case newerExisting
}
