import Foundation
import Testing
import WalletPrimitives

@Suite("Decimal(exactLiteral:): amounts as written, never through Double")
struct DecimalExactLiteralTests {
    @Test("accepted forms keep every digit", arguments: [("12.50", "12.5"), ("-3", "-3"), ("0.1", "0.1"), ("0", "0")])
    func accepted(_ text: String, _ description: String) throws {
        let value = try #require(Decimal(exactLiteral: text))
        #expect(value.description == description)
    }

    @Test("0.1 + 0.2 is exactly 0.3, as it would not be through Double")
    func exact() throws {
        let a = try #require(Decimal(exactLiteral: "0.1"))
        let b = try #require(Decimal(exactLiteral: "0.2"))
        let c = try #require(Decimal(exactLiteral: "0.3"))
        #expect(a + b == c)
    }

    @Test("anything else is refused", arguments: ["", "-", ".5", "5.", "1e3", " 1", "1,5", "+1", "1.2.3", "١٢", "--1"])
    func refused(_ text: String) {
        #expect(Decimal(exactLiteral: text) == nil)
    }

    @Test(
        "written back with the digits it was given",
        arguments: ["64.80", "12.00", "0.10", "-3", "0", "0.000", "1.125", "123456789012345678901234.50", "-0.50"])
    func roundTrip(_ text: String) throws {
        let value = try #require(Decimal(exactLiteral: text))
        #expect(value.literal(fractionDigits: Decimal.fractionDigits(ofLiteral: text)) == text)
    }

    @Test("a scale below the value's own digits keeps every digit")
    func neverRounds() throws {
        let value = try #require(Decimal(exactLiteral: "1.125"))
        #expect(value.literal(fractionDigits: 0) == "1.125")
        #expect(value.fractionDigits == 3)
        #expect(Decimal(12).literal(fractionDigits: 2) == "12.00")
    }
}
