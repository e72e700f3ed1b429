/// Who is calling: an app or merchant backend, named like a bundle identifier
/// (`com.example.budget`). Every data call on a server is made on behalf of a client.
public struct ClientIdentifier: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    /// Nil unless `rawValue` is 1–255 characters of letters, digits, `.`, `-` and `_`.
    public init?(rawValue: String) {
        guard (1...255).contains(rawValue.utf8.count),
            rawValue.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-_".unicodeScalars.contains($0))
            })
        else { return nil }
        self.rawValue = rawValue
    }

    /// For literals in code; an invalid literal is a programming error caught by tests.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }
}
