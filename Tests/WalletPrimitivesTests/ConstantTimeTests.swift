import Testing
import WalletPrimitives

@Suite("Constant-time comparison")
struct ConstantTimeTests {
    static let cases: [([UInt8], [UInt8], Bool)] = [
        ([], [], true),
        ([1, 2, 3], [1, 2, 3], true),
        ([1, 2, 3], [1, 2, 4], false),
        ([9, 2, 3], [1, 2, 3], false),
        ([1, 2], [1, 2, 0], false),  // a shorter one is not padded into equality
        ([1, 2, 0], [1, 2], false),
        ([], [0], false),
    ]

    @Test("arrays and other collections compare alike", arguments: cases)
    func equals(lhs: [UInt8], rhs: [UInt8], expected: Bool) {
        #expect(ConstantTime.equals(lhs, rhs) == expected)
        #expect(ConstantTime.equals(lhs[...], rhs[...]) == expected)
    }
}
