import Foundation
import GRDBSQLite
import WalletStorage

/// The current row of a ``PreparedStatement`` run, read by column index as every repository
/// reads rows. Valid only inside the run's row callback. A NULL where a value is required, or a
/// value of another storage class, throws ``UnreadableColumn`` naming the column.
struct SQLiteRow: SQLRow {
    let handle: OpaquePointer

    func text(_ index: Int) throws -> String {
        guard let text = try optionalText(index) else { throw unreadable(index) }
        return text
    }

    func optionalText(_ index: Int) throws -> String? {
        let column = CInt(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL:
            return nil
        case SQLITE_TEXT:
            // Read with its length: text may hold NUL characters.
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let bytes = sqlite3_column_text(handle, column) else { return "" }
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        default:
            throw unreadable(index)
        }
    }

    func integer(_ index: Int) throws -> Int64 {
        guard let integer = try optionalInteger(index) else { throw unreadable(index) }
        return integer
    }

    func optionalInteger(_ index: Int) throws -> Int64? {
        let column = CInt(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER: return sqlite3_column_int64(handle, column)
        default: throw unreadable(index)
        }
    }

    func bytes(_ index: Int) throws -> Data {
        guard let bytes = try optionalBytes(index) else { throw unreadable(index) }
        return bytes
    }

    func optionalBytes(_ index: Int) throws -> Data? {
        let column = CInt(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL:
            return nil
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return Data() }
            return Data(bytes: bytes, count: count)
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_text(handle, column) else { return Data() }
            return Data(bytes: bytes, count: count)
        default:
            throw unreadable(index)
        }
    }

    func bool(_ index: Int) throws -> Bool {
        try integer(index) != 0
    }

    private func unreadable(_ index: Int) -> UnreadableColumn {
        UnreadableColumn(name: sqlite3_column_name(handle, CInt(index)).map { String(cString: $0) })
    }
}

/// A column ``SQLiteRow`` could not read as asked; the connection turns it into
/// `StorageError.unreadableRow` with the store's path.
struct UnreadableColumn: Error {
    let name: String?
}
