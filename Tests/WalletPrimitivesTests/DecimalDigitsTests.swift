import Testing
import WalletPrimitives

@Suite("Decimal digits without Foundation's formatting")
struct DecimalDigitsTests {
    @Test(
        "as %0Nd writes them",
        arguments: [
            (0, 1, "0"), (0, 4, "0000"), (7, 2, "07"), (2026, 4, "2026"), (12345, 4, "12345"), (10, 1, "10"),
            (UInt64.max, 1, "18446744073709551615"),
        ] as [(UInt64, Int, String)])
    func padded(value: UInt64, width: Int, expected: String) {
        var bytes: [UInt8] = []
        DecimalDigits.append(value, minimumDigits: width, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }
}
