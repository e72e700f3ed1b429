/// Who is calling: an app or merchant backend, named like a bundle identifier
/// (`com.example.budget`). Every data call on a server is made on behalf of a client.
public struct ClientIdentifier: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    /// Nil unless `rawValue` is 1–255 characters of letters, digits, `.`, `-` and `_`.
    public init?(rawValue: String) {
        // By bytes: every allowed character is ASCII, and no byte of a longer one is.
        guard (1...255).contains(rawValue.utf8.count),
            rawValue.utf8.allSatisfy({ byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
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
