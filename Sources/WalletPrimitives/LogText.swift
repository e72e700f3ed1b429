/// How log lines show text, wherever it came from: one function, applied by the log handler to
/// every message and metadata value, so that no log site can forget it.
///
/// A log line is read by people on terminals and by programs that split on newlines. A value from
/// a request (a device identifier, a device's log entry, a header) must not end the line and forge
/// another, move the cursor or recolour the screen, or reorder what is shown. So these are written
/// as `\u{…}`: C0 controls (newline, carriage return, escape…), DEL, C1 controls (U+0085 NEXT
/// LINE among them), U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR, and the bidirectional
/// formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069). A backslash is
/// written `\\`, so that a `\u{A}` typed by a client never reads as one of ours.
///
/// ```swift
/// LogText.escaped("dev\nINFO forged")   // "dev\\u{A}INFO forged"
/// LogText.escaped("abc\u{202E}gpj.exe") // "abc\\u{202E}gpj.exe"
/// ```
public enum LogText {
    /// `text` with every character above escaped; text without any is returned as it is.
    public static func escaped(_ text: some StringProtocol) -> String {
        // Most lines are printable ASCII: one pass over the bytes, no copy.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) { return String(text) }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                result.append(contentsOf: #"\\"#.unicodeScalars)
            } else if needsEscaping(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether `scalar` is written as `\u{…}` in a log line.
    public static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F: true
        case 0x2028, 0x2029: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `line` cut to at most `limit` bytes of UTF-8 (never inside a character), with what was
    /// cut said at the end.
    public static func clipped(_ line: String, toBytes limit: Int) -> String {
        let count = line.utf8.count
        guard count > limit else { return line }
        let note = " … (\(count) bytes, cut)"
        var end = line.utf8.index(line.utf8.startIndex, offsetBy: max(0, limit - note.utf8.count))
        while end > line.utf8.startIndex, end.samePosition(in: line.unicodeScalars) == nil {
            end = line.utf8.index(before: end)
        }
        return String(line.unicodeScalars[..<end]) + note
    }
}
