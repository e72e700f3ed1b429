import Foundation
import Testing
import WalletPrimitives

@Suite("String(validUTF8:): the same answer as String(validating:as:)")
struct ValidUTF8Tests {
    @Test(
        "ASCII, other UTF-8, and bytes that are not UTF-8",
        arguments: [
            [], Array("order.json".utf8), Array("Café ☕️ 😀".utf8), [0x7F, 0x41], [0xC3], [0xFF, 0x41], [0xED, 0xA0, 0x80],
            [0xC0, 0xAF], [0x41, 0x80], Array("logo\u{202E}gnp.png".utf8),
        ] as [[UInt8]])
    func agreesWithValidating(_ bytes: [UInt8]) {
        let fast = bytes.withUnsafeBytes { String(validUTF8: $0) }
        let reference = String(validating: bytes, as: UTF8.self)
        #expect(fast == reference)
        if let fast { #expect(Array(fast.utf8) == bytes) }
    }

    @Test("the JSON parser refuses a string that is not UTF-8, with or without escapes")
    func parserRefusesInvalidUTF8() {
        for text in [[0x22, 0xFF, 0x22], [0x22, 0x5C, 0x6E, 0xC3, 0x22], [0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D]]
            as [[UInt8]]
        {
            #expect(throws: JSONParseError.self) { try JSONParser().parse(Data(text)) }
        }
        #expect((try? JSONParser().parse(Data("\"Café\"".utf8)).value) == .string("Café"))
    }
}
