import WalletCore

/// Text keys that the SQLite store can hold exactly.
///
/// GRDB passes Swift strings to SQLite as C strings: bound with length -1 and read back with
/// `String(cString:)`. Everything from a U+0000 on is dropped without notice, so a key holding
/// one would silently become — and collide with — its prefix. Such keys are refused instead:
/// no stored key contains U+0000, so a lookup for one finds nothing and a write fails. Every
/// other Unicode scalar, in every plane, round-trips.
enum SQLiteText {
    /// Whether `text` survives binding and reading back unchanged.
    static func isExact(_ text: String) -> Bool {
        !text.utf8.contains(0)
    }
}
