import Foundation
import GRDB
import WalletCore

extension StorageError {
    /// A database error, as `store.corrupt` when SQLite reports a damaged file.
    init(sqlite error: any Error, path: String?) {
        if StoreDatabase.isCorruption(error) {
            self.init(reason: StoreDatabase.corruptionAdvice(path: path), isCorrupt: true)
        } else {
            self.init(reason: StoreDatabase.describe(error))
        }
    }
}
