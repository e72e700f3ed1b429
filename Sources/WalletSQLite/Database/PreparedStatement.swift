import Foundation
import GRDB
import GRDBSQLite
import WalletStorage

/// One run of a statement that GRDB compiled (and caches per connection), through SQLite's C
/// API: bind the ``WalletStorage/SQLValue``s, step, hand each row to the caller, reset.
///
/// Why not GRDB's fetch and execute: they take `StatementArguments`, which GRDB builds from a
/// generic sequence with a key path that the Swift runtime resolves, by demangling, on every
/// call — about 7,700 instructions per statement on this machine, more than the SQLite work of a
/// point lookup (Benchmarks/README.md, "Storage written once"). Binding by SQLite's parameter
/// names also spares rewriting the repositories' `$n` placeholders: SQLite reads `$1` as a named
/// parameter, so each parameter's number is in its name, wherever it first appears.
///
/// The statement is borrowed for the run, on the connection's own thread (inside a GRDB
/// access): it is reset and its bindings cleared when the run ends, however it ends, so the next
/// run — or GRDB — finds it as GRDB left it. Only the repositories' statements are run this way;
/// GRDB keeps its own ones in another cache.
struct PreparedStatement {
    let handle: OpaquePointer
    /// The text it was compiled from, for error messages (GRDB's `Statement.sql` trims it anew
    /// on every read).
    let sql: String

    init(_ statement: Statement, sql: String) {
        handle = statement.sqliteStatement
        self.sql = sql
    }

    /// Binds `arguments`, then steps: `onRow` for each row while it returns true.
    func run(_ arguments: [SQLValue], _ onRow: (SQLiteRow) throws -> Bool) throws {
        defer {
            sqlite3_reset(handle)
            // Releases SQLite's copies of the bound text and blobs (archives among them).
            sqlite3_clear_bindings(handle)
        }
        try bind(arguments)
        let row = SQLiteRow(handle: handle)
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW:
                guard try onRow(row) else { return }
            case SQLITE_DONE:
                return
            case let code:
                throw failure(code)
            }
        }
    }

    private func bind(_ arguments: [SQLValue]) throws {
        var highest = 0
        for index in stride(from: 1, through: sqlite3_bind_parameter_count(handle), by: 1) {
            let number = Self.number(of: sqlite3_bind_parameter_name(handle, index)) ?? Int(index)
            guard number >= 1, number <= arguments.count else { throw misuse(arguments.count) }
            highest = max(highest, number)
            let code = Self.bind(arguments[number - 1], to: handle, at: index)
            guard code == SQLITE_OK else { throw failure(code) }
        }
        guard highest == arguments.count else { throw misuse(arguments.count) }
    }

    /// `$12` → 12; nil for an anonymous `?` (bound by position).
    private static func number(of name: UnsafePointer<CChar>?) -> Int? {
        guard let name, name[0] == CChar(UInt8(ascii: "$")) else { return nil }
        var number = 0
        var offset = 1
        while case let byte = UInt8(bitPattern: name[offset]), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            number = number * 10 + Int(byte - UInt8(ascii: "0"))
            offset += 1
        }
        return offset > 1 ? number : nil
    }

    private static func bind(_ value: SQLValue, to handle: OpaquePointer, at index: CInt) -> CInt {
        switch value {
        case .null:
            return sqlite3_bind_null(handle, index)
        case .integer(let integer):
            return sqlite3_bind_int64(handle, index, integer)
        case .text(var text):
            // Copied by SQLite (SQLITE_TRANSIENT): the bytes need not outlive the call.
            return text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { characters in
                    // An empty buffer may have no address, and a null pointer would bind NULL.
                    guard let address = characters.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, transient) }
                    return sqlite3_bind_text(handle, index, address, CInt(characters.count), transient)
                }
            }
        case .blob(let data):
            // A null pointer would bind NULL, not an empty blob.
            guard !data.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return data.withUnsafeBytes { bytes in
                sqlite3_bind_blob(handle, index, bytes.baseAddress, CInt(bytes.count), transient)
            }
        }
    }

    private func failure(_ code: CInt) -> DatabaseError {
        let message = sqlite3_db_handle(handle).flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
    }

    private func misuse(_ given: Int) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "wrong number of statement arguments: \(given) for \(sqlite3_bind_parameter_count(handle)) parameters",
            sql: sql)
    }
}

/// SQLite's "copy the value now" destructor.
private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
