import Foundation
import WalletCore

/// A result row, read by column index: each SQL backend's row type conforms, so the repositories
/// of this module read every backend's rows alike. Reading a NULL as a non-optional, or a value
/// of another type, throws.
package protocol SQLRow {
    func text(_ index: Int) throws -> String
    func optionalText(_ index: Int) throws -> String?
    func integer(_ index: Int) throws -> Int64
    func optionalInteger(_ index: Int) throws -> Int64?
    func bytes(_ index: Int) throws -> Data
    func optionalBytes(_ index: Int) throws -> Data?
    /// A condition's value: PostgreSQL's `boolean`, SQLite's integer.
    func bool(_ index: Int) throws -> Bool
}

extension StorageError {
    /// A row a backend could not read the way the repositories read it (a NULL, or a value of
    /// another type, where the schema allows none): said in the same words by every backend,
    /// naming the column where the backend knows it, never the statement or its values.
    package static func unreadableRow(column: String?, in location: String) -> StorageError {
        let place = column.map { " in column \($0)" } ?? ""
        return StorageError(
            reason: "\(location) holds a value this version cannot read\(place); nothing was changed. "
                + "`orders doctor` checks an SQLite store")
    }
}
