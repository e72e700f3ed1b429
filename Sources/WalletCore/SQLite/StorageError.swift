/// The shared database file could not be opened, read or written.
public struct StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for people: "cannot open …: the file is not an SQLite database".
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    /// Stable code, as every error in this project has.
    public var code: String { "store.unavailable" }

    public var description: String { "the store is unavailable: \(reason)" }
}
