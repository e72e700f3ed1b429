import Foundation
import Testing
import WalletPrimitives

@Suite("Messages quote values short and harmless")
struct MessageTextTests {
    @Test("values are quoted, cut at 80 characters with the full count, and control characters escaped")
    func quote() {
        #expect(MessageText.quote("ORDER-1") == "'ORDER-1'")
        let long = String(repeating: "é", count: 100_000)
        #expect(MessageText.quote(long) == "'" + String(repeating: "é", count: 80) + "… (100000 characters)'")
        #expect(MessageText.quote("a\u{1B}[2J\u{0}\u{9B}b") == #"'a\u{1B}[2J\u{0}\u{9B}b'"#)
        #expect(MessageText.escapingControlCharacters("x\ty\n\u{7F}", except: ["\n"]) == #"x\u{9}y"# + "\n" + #"\u{7F}"#)
    }

}
