/// What kind of failure an error is. Each edge maps categories to its own outcome in one table:
/// the CLI to exit statuses, the HTTP service to status codes.
public enum ErrorCategory: String, Sendable, Hashable, CaseIterable, Codable {
    /// The input is malformed or breaks a rule: an archive, a feed, an option value.
    case invalidInput
    /// What was asked for does not exist (or is not visible to the caller).
    case notFound
    /// The request contradicts what is stored (a changed signer, the same `updatedAt` with
    /// other bytes).
    case conflict
    /// The caller is not allowed: not authorized, not entitled.
    case unauthorized
    /// The data type is restricted for now; nothing was read or changed.
    case restricted
    /// This deployment does not provide the data type.
    case unavailable
    /// The store cannot be opened, read or written, or is damaged.
    case storage
}

/// The one shape of every library error: a stable code, a message for people, where the problem
/// is when that is known, and a category.
///
/// ```swift
/// do {
///     try await store.saveOrder(signedArchive: bytes)
/// } catch let error as any WalletError {
///     log("\(error.code) \(error.path ?? "-"): \(error.message)")   // store.invalidArchive …
/// }
/// ```
///
/// Codes are part of the public contract (they appear in `--json` output and in the docs) and are
/// never renamed.
public protocol WalletError: Error, Sendable {
    /// Stable, dotted: `archive.corrupt`, `store.conflictingVersion`, `feed.invalid`.
    var code: String { get }
    /// One sentence for a person.
    var message: String { get }
    /// Where: a JSON path (`transactions[1].amount`), an archive entry, or nil.
    var path: String? { get }
    var category: ErrorCategory { get }
}

extension WalletError {
    public var path: String? { nil }
}
