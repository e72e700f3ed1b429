/// Rules for entry names, shared by the reader (which rejects) and the builder (which skips).
enum ArchiveEntryName {
    /// Why `name` is unsafe to extract or ambiguous, or nil when it is a plain relative path.
    static func unsafeReason(_ name: String) -> String? {
        if name.isEmpty { return "the name is empty" }
        if name.hasPrefix("/") { return "absolute path" }
        if name.contains("\\") { return "backslash in the name" }
        let scalars = Array(name.unicodeScalars.prefix(2))
        if scalars.count == 2, scalars[1] == ":", scalars[0].properties.isAlphabetic, scalars[0].isASCII {
            return "drive-letter path"
        }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "control character in the name"
        }
        var components = name.split(separator: "/", omittingEmptySubsequences: false)
        if name.hasSuffix("/") { components.removeLast() }
        for component in components {
            switch component {
            case "": return "empty path segment"
            case ".", "..": return "'\(component)' path segment"
            default: continue
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
