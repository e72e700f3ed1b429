import WalletPrimitives

/// The shared database file could not be opened, read or written.
public struct StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for people: "cannot open …: the file is not an SQLite database".
    public var reason: String
    /// The file is damaged (SQLite found corruption): `store.corrupt` rather than
    /// `store.unavailable`, and ``reason`` says what to do.
    public var isCorrupt: Bool

    public init(reason: String, isCorrupt: Bool = false) {
        self.reason = reason
        self.isCorrupt = isCorrupt
    }

    /// Stable code, as every error in this project has.
    public var code: String { isCorrupt ? "store.corrupt" : "store.unavailable" }

    public var description: String { isCorrupt ? "the store is damaged: \(reason)" : "the store is unavailable: \(reason)" }
}

extension StorageError: WalletError {
    public var message: String { reason }
    public var category: ErrorCategory { .storage }
}
