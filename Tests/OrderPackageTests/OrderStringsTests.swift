import Foundation
import Testing

@testable import OrderPackage

@Suite("order.strings")
struct OrderStringsTests {
    static let text = """
        /* A comment */
        "GREETING" = "Hello \\"world\\"";  // trailing comment
        "MULTI" = "line\\nbreak \\U00e9";
        """

    @Test(
        "UTF-8, UTF-8 with BOM, UTF-16 big and little endian",
        arguments: [String.Encoding.utf8, .utf16BigEndian, .utf16LittleEndian])
    func encodings(_ encoding: String.Encoding) throws {
        var data = try #require(Self.text.data(using: encoding))
        switch encoding {
        case .utf16BigEndian: data = Data([0xFE, 0xFF]) + data
        case .utf16LittleEndian: data = Data([0xFF, 0xFE]) + data
        default: data = Data([0xEF, 0xBB, 0xBF]) + data
        }
        let strings = try OrderStrings(parsing: data)
        #expect(strings.entries.map(\.key) == ["GREETING", "MULTI"])
        #expect(strings.entries.map(\.value) == ["Hello \"world\"", "line\nbreak é"])
    }

    @Test(
        "malformed files are rejected with a reason",
        arguments: [
            ("\"a\" = \"b\"", "expected ';'"), ("\"a\" \"b\";", "expected '='"), ("\"a\" = \"b", "unterminated string"),
            ("/* open", "unterminated comment"), ("\"a\" = \"1\";\n\"a\" = \"2\";", "appears twice"),
            ("a = \"b\";", "expected '\"'"),
            ("\"a\" = \"\\q\";", "unknown escape"),
        ])
    func malformed(_ text: String, _ reason: String) {
        #expect {
            try OrderStrings(parsing: Data(text.utf8))
        } throws: { error in
            (error as? OrderStrings.ParseError)?.reason.contains(reason) == true
        }
    }

    @Test("UTF-16 without a BOM and invalid UTF-8 are rejected")
    func undecodable() {
        #expect(throws: OrderStrings.ParseError.self) { try OrderStrings(parsing: Data([0x22, 0xFF, 0x22])) }
    }
}
