/// A request target's path that names a place on this origin and nowhere else, whatever a
/// browser makes of it.
///
/// Browsers read `//host/…` as another host, and `\` as `/` in http(s) URLs, so `/\host` is
/// another host too; `/%2F…` and `/%5C…` become those after one decoding. A path like these is
/// refused before any page is built from it (``ServiceMiddleware``), and a page that sends the
/// person back to where they were (the sign-in's `next`, the cross-site bounce) uses only a path
/// that passes here.
public enum LocalPath {
    /// Whether `path` (the raw request target up to `?`, or a `next` parameter) starts with one
    /// `/` followed by something other than `/` or `\`, holds no `\`, does not start with an
    /// encoded `/` or `\`, and has only printable ASCII.
    public static func isLocal(_ path: some StringProtocol) -> Bool {
        withBytes(of: path) { isLocal($0) }
    }

    private static func isLocal(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard bytes.first == UInt8(ascii: "/") else { return false }
        let start = bytes.startIndex
        if bytes.count > 1, bytes[start + 1] == UInt8(ascii: "/") { return false }
        for byte in bytes where byte == UInt8(ascii: "\\") || byte <= 0x20 || byte >= 0x7F { return false }
        if bytes.count >= 4, bytes[start + 1] == UInt8(ascii: "%") {
            switch (bytes[start + 2], bytes[start + 3] | 0x20) {  // `| 0x20`: either case of a letter
            case (UInt8(ascii: "2"), UInt8(ascii: "f")), (UInt8(ascii: "5"), UInt8(ascii: "c")): return false
            default: break
            }
        }
        return true
    }

    /// Whether `path` is written the one way a route is: `/`, or segments none of which is empty
    /// (no `//`, no trailing `/`) or, once percent-decoded, `.` or `..`. A router that reads
    /// `/metrics/` or `/console//orders` as `/metrics` and `/console/orders` would let a request
    /// past a proxy's rule for the canonical path (nginx's `location = /metrics`); so every other
    /// spelling answers 404 (docs/hardening.md, "One spelling per path").
    public static func isCanonical(_ path: some StringProtocol) -> Bool {
        withBytes(of: path) { isCanonical($0) }
    }

    private static func isCanonical(_ path: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        // Every request passes here: one walk over the bytes, nothing allocated.
        var bytes = path.makeIterator()
        guard bytes.next() == UInt8(ascii: "/") else { return false }
        var segmentLength = 0  // bytes of the segment so far; 0 at its start
        var dots = 0  // `.` and `%2E` seen, while the segment holds nothing else
        var onlyDots = true
        var percent = 0  // 1 after `%`, 2 after `%2`, while reading an escape that may be `%2E`
        var first = true
        while let byte = bytes.next() {
            first = false
            if byte == UInt8(ascii: "/") {
                guard segmentLength > 0, !(onlyDots && percent == 0 && dots <= 2) else { return false }
                (segmentLength, dots, onlyDots, percent) = (0, 0, true, 0)
                continue
            }
            segmentLength += 1
            guard onlyDots else { continue }
            switch (percent, byte) {
            case (0, UInt8(ascii: ".")): dots += 1
            case (0, UInt8(ascii: "%")): percent = 1
            case (1, UInt8(ascii: "2")): percent = 2
            case (2, UInt8(ascii: "e")), (2, UInt8(ascii: "E")):
                percent = 0
                dots += 1
            default: onlyDots = false
            }
        }
        if first { return true }  // "/"
        return segmentLength > 0 && !(onlyDots && percent == 0 && dots <= 2)
    }

    /// Whether the request target `target` (path and query, as the request line gives it) must be
    /// refused: it is in origin form (starts with `/`) and its path is not ``isLocal(_:)`` or not
    /// ``isCanonical(_:)``.
    public static func isRefused(target: some StringProtocol) -> Bool {
        // Every request passes here: bytes, not `Character`s (a split on `?` would break the
        // target into grapheme clusters).
        withBytes(of: target) { bytes in
            guard bytes.first == UInt8(ascii: "/") else { return false }
            let path = bytes[..<(bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex)]
            return !isLocal(path) || !isCanonical(path)
        }
    }

    /// `body` over the UTF-8 bytes of `text`, in place (copied only when a bridged or foreign
    /// string does not hold them contiguously).
    private static func withBytes<Result>(
        of text: some StringProtocol, _ body: (Slice<UnsafeBufferPointer<UInt8>>) -> Result
    ) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable({ body($0[...]) }) { return result }
        var copy = String(text)
        return copy.withUTF8 { body($0[...]) }
    }
}
