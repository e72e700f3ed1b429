import Foundation
import TestArchiveTable
import WalletSQLite
import WalletStorage

/// A way to get a fresh, empty backend: what the contract suite runs against. Every backend of
/// the package is listed in ``all``; the suite runs each test once per row.
public struct BackendFactory: Sendable, CustomStringConvertible {
    public var description: String
    public var make: @Sendable () async throws -> any StorageBackend

    public init(_ description: String, make: @escaping @Sendable () async throws -> any StorageBackend) {
        self.description = description
        self.make = make
    }

    /// The embedded backend, in a new file under the temporary directory.
    public static let sqlite = BackendFactory("SQLite") {
        let folder = try TemporaryDirectory.make("contract-sqlite")
        return try SQLiteBackend(path: folder.appendingPathComponent("store.sqlite").path)
    }

    public static let all: [BackendFactory] = [.sqlite]
}
