import Foundation
import GRDB
import StorageContract
import TestArchiveTable
import Testing
@_spi(Testing) import WalletOrders

@testable import WalletSQLite

/// Fresh embedded backends, and their GRDB pool for checks below the repositories.
enum SQLiteFixtures {
    static func path(_ prefix: String = "sqlite") throws -> String {
        try TemporaryDirectory.make(prefix).appendingPathComponent("store.sqlite").path
    }

    static func backend(at path: String? = nil) throws -> SQLiteBackend {
        try SQLiteBackend(path: path ?? Self.path())
    }

    /// The pool behind a wallet on the embedded backend.
    static func pool(_ wallet: WalletStore) throws -> DatabasePool {
        try #require(wallet.backend as? SQLiteBackend).pool
    }
}
