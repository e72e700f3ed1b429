import Foundation
import Testing
import WalletPrimitives

@Suite("JSON parser")
struct JSONParserTests {
    static func parse(_ text: String, depth: Int = 64) throws(JSONParseError) -> JSONValue {
        try JSONParser(maximumDepth: depth).parse(Data(text.utf8)).value
    }

    static func reason(_ text: String, depth: Int = 64) -> JSONParseError.Reason? {
        do {
            _ = try parse(text, depth: depth)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("100,000 nested brackets fail fast at the depth limit instead of overflowing the stack")
    func deepNesting() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(Self.reason(text) == .tooDeep(limit: 64))
        let objects = String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        #expect(Self.reason(objects) == .tooDeep(limit: 64))
    }

    @Test("the depth limit is exact")
    func depthBoundary() {
        let atLimit = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(Self.reason(atLimit) == nil)
        #expect(Self.reason("[" + atLimit + "]") == .tooDeep(limit: 64))
        #expect(Self.reason("[[1]]", depth: 1) == .tooDeep(limit: 1))
    }

    @Test("objects keep member order; numbers keep their literal")
    func orderAndLiterals() throws {
        let value = try Self.parse(#"{"b": 12.50, "a": -0, "c": 1e3, "d": [true, false, null], "e": "x"}"#)
        guard case .object(let object) = value else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == ["b", "a", "c", "d", "e"])
        #expect(object["b"] == .number("12.50"))
        #expect(object["a"] == .number("-0"))
        #expect(object["c"] == .number("1e3"))
        #expect(object["d"] == .array([.bool(true), .bool(false), .null]))
        #expect(value.serialized == #"{"b":12.50,"a":-0,"c":1e3,"d":[true,false,null],"e":"x"}"#)
    }

    @Test("strings: escapes, surrogate pairs, escaped slashes")
    func strings() throws {
        #expect(try Self.parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
        #expect(try Self.parse(#""images\/logo.png""#) == .string("images/logo.png"))
        #expect(try Self.parse("\"caf\u{e9}\"") == .string("café"))
    }

    @Test(
        "malformed documents are rejected with a reason",
        arguments: [
            ("", JSONParseError.Reason.empty), ("   ", .empty), ("{", .unexpectedEnd), ("[1,]", .unexpectedCharacter("']'")),
            ("{\"a\":1,}", .unexpectedCharacter("'}'")), ("01", .invalidNumber), ("1.", .invalidNumber), ("-", .invalidNumber),
            (".5", .unexpectedCharacter("'.'")), ("1 2", .trailingContent), ("\"\\x\"", .invalidEscape),
            ("\"\\ud800\"", .invalidEscape), ("\"a\nb\"", .controlCharacterInString), ("tru", .unexpectedEnd),
            ("{\"a\":1,\"a\":2}", .duplicateKey("a")), ("nul", .unexpectedEnd), ("[1 2]", .unexpectedCharacter("'2'")),
        ])
    func malformed(_ text: String, _ expected: JSONParseError.Reason) {
        #expect(Self.reason(text) == expected)
    }

    @Test("invalid UTF-8 inside a string is an error, not a replacement character")
    func invalidUTF8() {
        let data = Data([0x22, 0x61, 0xFF, 0x62, 0x22])
        #expect(throws: JSONParseError.self) { try JSONParser().parse(data) }
    }

    @Test("duplicate keys are found in large objects too")
    func duplicateKeysInLargeObjects() {
        let members = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        #expect(Self.reason("{\(members), \"k3\": 1}") == .duplicateKey("k3"))
        #expect(Self.reason("{\(members)}") == nil)
    }

    @Test("errors say where: line, column and JSON path")
    func location() {
        do {
            _ = try Self.parse("{\n  \"lineItems\": [\n    {\"title\": tru}\n  ]\n}")
            Issue.record("parsed")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 15)
            #expect(error.jsonPath.description == "lineItems[0].title")
            #expect(error.description.contains("line 3, column 15"))
        }
    }

    @Test("a UTF-8 byte order mark is skipped and reported")
    func byteOrderMark() throws {
        let document = try JSONParser().parse(Data([0xEF, 0xBB, 0xBF]) + Data("{}".utf8))
        #expect(document.hadByteOrderMark)
        #expect(document.value == .object(JSONObject()))
        #expect(try !JSONParser().parse(Data("{}".utf8)).hadByteOrderMark)
    }

    @Test("paths print the way people write them")
    func paths() {
        let path = JSONPath.root.appending("fulfillments").appending(index: 0).appending("status")
        #expect(path.description == "fulfillments[0].status")
        #expect(JSONPath.root.appending("a b").appending("c\"d").description == #"["a b"]["c\"d"]"#)
        #expect(JSONPath.root.appending("9lives").description == #"["9lives"]"#)
        #expect(JSONPath.root.description == "")
    }
}
