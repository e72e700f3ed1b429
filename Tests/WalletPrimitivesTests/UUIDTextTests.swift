import Foundation
import Testing
import WalletPrimitives

/// The identifier text stores read and write without Foundation's formatted scan and print
/// must agree with `UUID(uuidString:)` and `uuidString` on every input.
@Suite("UUID text")
struct UUIDTextTests {
    @Test("text is uuidString, and reads back as the same UUID, for 10,000 random identifiers")
    func roundTrip() {
        for _ in 0..<10_000 {
            let uuid = UUID()
            #expect(uuid.text == uuid.uuidString)
            #expect(UUID(text: uuid.text) == uuid)
            #expect(UUID(text: uuid.uuidString.lowercased()) == uuid)
        }
        #expect(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)).text == "00000000-0000-0000-0000-000000000000")
    }

    /// The 36-character form: hex digits in either case, hyphens after the 8th, 12th, 16th and
    /// 20th. (Foundation's scan also takes some malformed text — a sign or a space where a digit
    /// belongs — which `UUID(text:)` refuses.)
    static func isWellFormed(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 36
            && bytes.indices.allSatisfy { index in
                [8, 13, 18, 23].contains(index)
                    ? bytes[index] == UInt8(ascii: "-") : Character(Unicode.Scalar(bytes[index])).isHexDigit
            }
    }

    @Test("every one-character change and every length: well-formed text reads as Foundation reads it, the rest is refused")
    func agreesWithFoundation() {
        let base = Array("0A1b2C3d-4E5f-6789-aBcD-EF0123456789")
        let alphabet = Array("0123456789abcdefABCDEFgG-+xX {}é\u{0}")
        var checked = 0
        for position in base.indices {
            for character in alphabet {
                var text = base
                text[position] = character
                let string = String(text)
                if Self.isWellFormed(string) {
                    #expect(UUID(text: string) == UUID(uuidString: string), "\(string.debugDescription)")
                    checked += 1
                } else {
                    #expect(UUID(text: string) == nil, "\(string.debugDescription)")
                }
            }
        }
        #expect(checked > 500)
        for length in 0...40 where length != 36 {
            #expect(UUID(text: String(repeating: "A", count: length)) == nil)
        }
        let substring = "[\(String(base))]".dropFirst().dropLast()
        #expect(UUID(text: substring) == UUID(uuidString: String(substring)))
        #expect(UUID(text: "{0A1B2C3D-4E5F-6789-ABCD-EF0123456789}") == nil)
    }
}
