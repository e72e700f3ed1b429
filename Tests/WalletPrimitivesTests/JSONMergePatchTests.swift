import Foundation
import Testing
import WalletPrimitives

/// RFC 7396's merge patch, held to the RFC's own examples (Appendix A) and to member order.
@Suite("JSON Merge Patch (RFC 7396)")
struct JSONMergePatchTests {
    static func json(_ text: String) throws -> JSONValue {
        try JSONParser().parse(Data(text.utf8)).value
    }

    @Test(
        "Appendix A: every example",
        arguments: [
            (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
            (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
            (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
            (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
            (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
            (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
            (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
            (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
            (#"{"a":"foo"}"#, "null", "null"),
            (#"{"a":"foo"}"#, #""bar""#, #""bar""#),
            (#"{"e":null}"#, #"{"a":1}"#, #"{"e":null,"a":1}"#),
            (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
            (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
        ])
    func appendixA(_ target: String, _ patch: String, _ expected: String) throws {
        #expect(JSONMergePatch.apply(try Self.json(patch), to: try Self.json(target)).serialized == expected)
    }

    @Test("replaced members stay in place, new ones come last, numbers keep their text")
    func order() throws {
        let target = try Self.json(#"{"status":"open","total":{"amount":"12.50"},"items":[1]}"#)
        let patched = JSONMergePatch.apply(try Self.json(#"{"note":1.10,"status":"completed","items":null}"#), to: target)
        #expect(patched.serialized == #"{"status":"completed","total":{"amount":"12.50"},"note":1.10}"#)
    }
}
