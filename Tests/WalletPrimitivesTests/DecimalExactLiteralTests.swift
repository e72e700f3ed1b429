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

    @Test("built from its digits, a plain literal is the Decimal Foundation parses: value, exponent, significand, text")
    func plainLiteralAgainstFoundation() {
        let posix = Locale(identifier: "en_US_POSIX")
        var state: UInt64 = 5652
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var built = 0
        for _ in 0..<20_000 {
            let digits = "0123456789"
            func run(_ count: Int) -> String {
                String((0..<count).map { _ in digits[digits.index(digits.startIndex, offsetBy: next(10))] })
            }
            // Trailing and leading zeros on purpose: they decide the exponent.
            var text = (next(4) == 0 ? "-" : "") + run(1 + next(12)) + String(repeating: "0", count: next(3))
            if next(2) == 0 { text += "." + run(1 + next(8)) + String(repeating: "0", count: next(3)) }
            let reference = Decimal(string: text, locale: posix)
            guard let value = Decimal(plainLiteral: text) else {
                // Only zero and more than 18 significant digits are left to Foundation.
                #expect(reference == 0 || text.filter(\.isNumber).drop(while: { $0 == "0" }).count > 18, "\(text)")
                continue
            }
            built += 1
            #expect(value == reference, "\(text)")
            #expect(value.exponent == reference?.exponent, "\(text)")
            #expect(value.significand == reference?.significand, "\(text)")
            #expect(value.description == reference?.description, "\(text)")
            #expect(Decimal(exactLiteral: text) == reference, "\(text)")
        }
        #expect(built > 15_000)
        for text in ["1e3", "1E-2", "+1", "1.", ".5", "-", "", "0", "-0.00", "1234567890123456789", " 1"] {
            #expect(Decimal(plainLiteral: text) == nil, "\(text)")
        }
    }
}
