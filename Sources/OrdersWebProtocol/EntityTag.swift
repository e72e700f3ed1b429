/// A strong entity tag (RFC 9110 §8.8.3): the archive's SHA-256 in quotes.
public struct EntityTag: Hashable, Sendable {
    /// Without the quotes.
    public let opaque: String

    public init(opaque: String) {
        self.opaque = opaque
    }

    public var headerValue: String { "\"\(opaque)\"" }

    /// Whether an `If-None-Match` value names this tag: `*`, or a comma-separated list of tags
    /// compared weakly (a `W/` prefix is ignored), as RFC 9110 §13.1.2 asks.
    public func isMatched(byIfNoneMatch header: some StringProtocol) -> Bool {
        let value = header.utf8.count > 8192 ? header.prefix(8192) : header[...]
        if value.trimmingSpaces == "*" { return true }
        return value.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingSpaces
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag.count == opaque.count + 2 && tag.first == "\"" && tag.last == "\""
                && tag.dropFirst().dropLast() == opaque[...]
        }
    }
}
