import Foundation
import OrderPackage
import Testing

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
}
