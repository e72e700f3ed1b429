import Testing
import WalletCore

@Suite("ClientIdentifier")
struct ClientIdentifierTests {
    /// The rule as written in Unicode terms: 1–255 UTF-8 bytes of ASCII letters, digits, `.`,
    /// `-` and `_`.
    static func allowed(_ text: String) -> Bool {
        (1...255).contains(text.utf8.count)
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-_".unicodeScalars.contains($0))
            }
    }

    @Test("accepts exactly what the rule allows: every scalar up to U+00FF and a few beyond, in every position; lengths")
    func rule() {
        let scalars = (0...0xFF).compactMap(Unicode.Scalar.init) + ["\u{130}", "\u{212A}", "\u{FF21}", "\u{1F600}"]
        for scalar in scalars {
            for text in ["\(scalar)", "com.example\(scalar)", "\(scalar)x", "a\(scalar)b"] {
                #expect((ClientIdentifier(rawValue: text) != nil) == Self.allowed(text), "\(text.debugDescription)")
            }
        }
        #expect(ClientIdentifier(rawValue: "") == nil)
        #expect(ClientIdentifier(rawValue: String(repeating: "a", count: 255)) != nil)
        #expect(ClientIdentifier(rawValue: String(repeating: "a", count: 256)) == nil)
        #expect(ClientIdentifier(rawValue: "com.example.Budget_App-2")?.rawValue == "com.example.Budget_App-2")
    }
}
