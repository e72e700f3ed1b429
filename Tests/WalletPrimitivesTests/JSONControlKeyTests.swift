import Foundation
import Testing
import WalletPrimitives

/// The parser notes a key holding a control character while it reads the keys (issue 56), so that
/// order.json is walked for such keys' paths only when there is one.
@Suite("JSONParser: keys with control characters are noted as they are read")
struct JSONControlKeyTests {
    @Test(
        "escaped C0 (\\u0000, \\n), raw DEL, raw or escaped C1 are noted, at any depth; other keys, escaped or not, are not",
        arguments: [
            (#"{"a\u0000":1}"#, true), (#"{"x":{"y\n":1}}"#, true), ("{\"a\u{7F}\":1}", true), ("{\"a\u{85}\":1}", true),
            (#"[{"ok":[{"b\u009b":2}]}]"#, true), (#"{"plain":1,"with space":2}"#, false), (#"{"q\"uote\\d":1}"#, false),
            (#"{"caf\u00e9":"\u0000 in a value"}"#, false), ("{\"日本\":1}", false),
        ])
    func noted(_ json: String, _ expected: Bool) throws {
        let document = try JSONParser().parse(Data(json.utf8))
        #expect(document.hasControlCharacterKey == expected, "\(json)")
    }

    @Test("a path prints a control character of a key escaped: never raw to a terminal or a log")
    func pathEscapes() {
        #expect(JSONPath.root.appending("a\u{0}b").appending(index: 2).description == #"["a\u0000b"][2]"#)
        #expect(JSONPath.root.appending("x\u{1B}[31m").description == #"["x\u001b[31m"]"#)
        #expect(JSONPath.root.appending("q\"").description == #"["q\""]"#)
    }
}
