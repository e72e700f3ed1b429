import Foundation

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
