/// Rules for entry names, shared by the reader (which rejects) and the builder (which skips).
enum ArchiveEntryName {
    /// Why `name` is unsafe to extract or ambiguous, or nil when it is a plain relative path.
    ///
    /// Works on UTF-8 bytes: every character it looks for is ASCII, and no byte of a multi-byte
    /// sequence is (checked once per entry of every archive, so it stays off Foundation's
    /// `String` searches).
    static func unsafeReason(_ name: String) -> String? {
        let bytes = name.utf8
        guard let first = bytes.first else { return "the name is empty" }
        if first == UInt8(ascii: "/") { return "absolute path" }
        if bytes.contains(UInt8(ascii: "\\")) { return "backslash in the name" }
        if bytes.count >= 2, bytes[bytes.index(after: bytes.startIndex)] == UInt8(ascii: ":"),
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
        {
            return "drive-letter path"
        }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            return "control character in the name"
        }
        var components = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        if bytes.last == UInt8(ascii: "/") { components.removeLast() }
        for component in components {
            if component.isEmpty { return "empty path segment" }
            if component.allSatisfy({ $0 == UInt8(ascii: ".") }) && component.count <= 2 {
                return "'\(String(repeating: ".", count: component.count))' path segment"
            }
        }
        return nil
    }

    /// Whether `name` is operating-system metadata: `.DS_Store`, `__MACOSX/…` or AppleDouble `._*`.
    static func isMetadata(_ name: String) -> Bool {
        let components = name.split(separator: "/")
        if components.first == "__MACOSX" { return true }
        return components.contains { $0 == ".DS_Store" || $0.hasPrefix("._") }
    }

    /// Whether the entry is a directory marker (`en.lproj/`).
    static func isDirectory(_ name: String) -> Bool {
        name.hasSuffix("/")
    }
}
