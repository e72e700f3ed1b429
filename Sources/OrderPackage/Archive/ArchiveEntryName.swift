import Foundation

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
        if let reason = misleadingScalarReason(bytes) { return reason }
        // Each segment between slashes (a trailing slash marks a directory, not a segment).
        var segmentLength = 0
        var segmentIsDots = true
        for (offset, byte) in bytes.enumerated() {
            if byte != UInt8(ascii: "/") {
                segmentLength += 1
                segmentIsDots = segmentIsDots && byte == UInt8(ascii: ".")
                continue
            }
            if let reason = segmentReason(length: segmentLength, isDots: segmentIsDots) { return reason }
            if offset == bytes.count - 1 { return nil }
            segmentLength = 0
            segmentIsDots = true
        }
        if let reason = segmentReason(length: segmentLength, isDots: segmentIsDots) { return reason }
        return nil
    }

    private static func segmentReason(length: Int, isDots: Bool) -> String? {
        if length == 0 { return "empty path segment" }
        if isDots && length <= 2 { return "'\(String(repeating: ".", count: length))' path segment" }
        return nil
    }

    /// Why `bytes` (UTF-8) hold a character that changes how the name reads rather than what it
    /// is: a C1 control (U+0080–U+009F) or a bidirectional formatting character (U+061C,
    /// U+200E/F, U+202A–U+202E, U+2066–U+2069) — `logo\u{202E}gnp.exe` shows as `logoexe.png`.
    /// Looks at the bytes that start those sequences only.
    static func misleadingScalarReason(_ bytes: String.UTF8View) -> String? {
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case 0xC2:
                if let next = iterator.next(), (0x80...0x9F).contains(next) { return "control character in the name" }
            case 0xD8:
                if iterator.next() == 0x9C { return "bidirectional formatting character in the name" }
            case 0xE2:
                guard let second = iterator.next(), let third = iterator.next() else { return nil }
                if (second == 0x80 && ([0x8E, 0x8F] as [UInt8]).contains(third))
                    || (second == 0x80 && (0xAA...0xAE).contains(third)) || (second == 0x81 && (0xA6...0xA9).contains(third))
                {
                    return "bidirectional formatting character in the name"
                }
            default:
                continue
            }
        }
        return nil
    }

    /// The form two names share when a case-insensitive file system takes them for one: Unicode
    /// case folding of the NFC form (ASCII lowered alone when the name is ASCII, the common case).
    static func foldedKey(_ name: String) -> String {
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else {
            return name.precomposedStringWithCanonicalMapping.folding(options: .caseInsensitive, locale: nil)
                .precomposedStringWithCanonicalMapping
        }
        // Most entry names fit a small string (15 bytes): lowering them allocates nothing.
        let count = name.utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            for (index, byte) in name.utf8.enumerated() {
                buffer[index] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 0x20 : byte
            }
            return count
        }
    }

    /// The names seen so far by their ``foldedKey(_:)``: a name a case-insensitive file system
    /// would take for an earlier one is told with that one. Read archives and authored content
    /// use the same.
    struct FoldedNames {
        private var first: [String: String] = [:]

        /// The earlier name `name` collides with, or nil (then it is remembered).
        mutating func collision(of name: String) -> String? {
            first.updateValue(name, forKey: ArchiveEntryName.foldedKey(name))
        }
    }

    /// Whether `name` is operating-system metadata: `.DS_Store`, `__MACOSX/…` or AppleDouble `._*`.
    static func isMetadata(_ name: String) -> Bool {
        let bytes = name.utf8
        // Each non-empty segment: the first one `__MACOSX`, any one `.DS_Store` or starting `._`.
        var isFirst = true
        var segmentStart = bytes.startIndex
        while segmentStart < bytes.endIndex {
            let segmentEnd = bytes[segmentStart...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
            let segment = bytes[segmentStart..<segmentEnd]
            if !segment.isEmpty {
                if isFirst && segment.elementsEqual("__MACOSX".utf8) { return true }
                if segment.elementsEqual(".DS_Store".utf8) || segment.starts(with: "._".utf8) { return true }
                isFirst = false
            }
            segmentStart = segmentEnd == bytes.endIndex ? segmentEnd : bytes.index(after: segmentEnd)
        }
        return false
    }

    /// Whether the entry is a directory marker (`en.lproj/`).
    static func isDirectory(_ name: String) -> Bool {
        name.hasSuffix("/")
    }
}
