/// Searching text as SQL can do it the same way in every backend: a substring match where ASCII
/// letters match in either case and every other byte exactly. (Unicode case folding differs
/// between SQLite, which folds ASCII only, and PostgreSQL, which follows the database's locale;
/// this rule is the one both compute identically, and Swift with them.)
package enum TextSearch {
    /// The columns a transaction search looks in.
    package static let transactionColumns = ["transactionDescription", "originalTransactionDescription", "merchantName"]

    /// The text to look for, ASCII letters lowered; nil for no search (nil or empty).
    package static func needle(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return asciiLowercased(text)
    }

    /// Whether any of `texts` contains `needle` (already ``needle(_:)``'s form), byte for byte
    /// after lowering ASCII letters.
    package static func matches(_ texts: [String?], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        return texts.contains { text in
            guard let text else { return pattern.isEmpty }
            let haystack = Array(asciiLowercased(text).utf8)
            guard haystack.count >= pattern.count else { return false }
            return (0...(haystack.count - pattern.count)).contains { start in
                haystack[start..<(start + pattern.count)].elementsEqual(pattern)
            }
        }
    }

    package static func asciiLowercased(_ text: String) -> String {
        String(
            decoding: text.utf8.map { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
            }, as: UTF8.self)
    }
}
