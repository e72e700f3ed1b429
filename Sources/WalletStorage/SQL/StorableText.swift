/// Text keys that every SQL backend stores exactly.
///
/// Neither backend can hold U+0000 in text: GRDB passes Swift strings to SQLite as C strings (bound
/// with length -1 and read back with `String(cString:)`), so everything from a U+0000 on is dropped
/// without notice and a key would collide with its prefix; PostgreSQL's `text` refuses the byte
/// outright. Such keys are refused instead: no stored key contains U+0000, so a lookup for one
/// finds nothing and a write fails with a clear error. Every other Unicode scalar, in every
/// plane, round-trips.
package enum StorableText {
    /// Whether `text` survives binding and reading back unchanged.
    package static func isExact(_ text: String) -> Bool {
        !text.utf8.contains(0)
    }
}
