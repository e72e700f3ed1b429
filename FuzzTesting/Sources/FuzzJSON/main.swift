import Foundation
import FuzzSupport
import WalletPrimitives

// The JSON parser every document goes through (order.json, manifest.json, feeds, request bodies).
// Properties: nothing crashes at any depth; a parsed document serializes to JSON that parses back
// to the same value; errors carry a bounded message.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let parser = JSONParser(maximumDepth: 64)
    do throws(JSONParseError) {
        let value = try parser.parse(FuzzInput.data(UnsafeRawPointer(start), count)).value
        let serialized = value.serialized
        guard let again = try? parser.parse(Data(serialized.utf8)).value else {
            FuzzInput.check(false, "serialized form does not parse: \(serialized.prefix(200))")
            return 0
        }
        FuzzInput.check(again == value, "round trip changed the value: \(serialized.prefix(200))")
    } catch {
        FuzzInput.check(error.sentence(about: "input").utf8.count <= 4096, "an unbounded message")
    }
    return 0
}

FuzzDriver.run(fuzzJSON)
