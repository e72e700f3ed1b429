import Testing

@testable import OrderRendering

/// Vectors from python-barcode 0.15 (PyPI), module by module (1 = bar), quiet zones left out.
@Suite("Code128: code set B for text, C for even digit runs; the same modules as an independent encoder")
struct Code128Tests {
    static let vectors = [
        (
            "PICKUP-1",
            "11010010000111011101101100010001010001000110101100011101101110111011101110110100110111001001110011011101000110110001110101"
                + "1"
        ),
        (
            "Wallet orders ~ {ok}",
            "1101001000011101000110100101100001100101000011001010000101100100001001111010011011001100100011110101001001111010000100110"
                + "10110010000100100111101011110010011011001100100010111101101100110011110110110100011110101100001001010100011110101111010"
                + "001100011101011"
        ),
        ("12345678", "1101001110010110011100100010110001110001011011000010100100011101101100011101011"),
        ("00", "1101001110011011001100110011001101100011101011"),
    ]

    static func modules(_ code: Code128) -> String {
        code.widths.enumerated().map { String(repeating: $0.offset % 2 == 0 ? "1" : "0", count: $0.element) }.joined()
    }

    @Test("the same modules as python-barcode", arguments: vectors)
    func vector(_ vector: (String, String)) throws {
        let code = try #require(Code128(vector.0))
        #expect(Self.modules(code) == vector.1)
        #expect(code.moduleCount == vector.1.count)
    }

    @Test("what code sets B and C cannot hold is not encoded")
    func unencodable() {
        #expect(Code128("") == nil)
        #expect(Code128("caf\u{E9}") == nil)
        #expect(Code128("tab\there") == nil)
        #expect(Code128("123") != nil)  // odd digit count: code set B
    }
}
