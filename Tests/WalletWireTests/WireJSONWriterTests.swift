import Foundation
import OrderStorage
import TestArchiveTable
import Testing
import WalletPrimitives
import WalletWire

@Suite("WireJSONWriter: written JSON is JSONEncoder's, byte for byte")
struct WireJSONWriterTests {
    /// Every ASCII character, a few beyond (U+2028 and U+2029 stay unescaped, as JSONEncoder
    /// leaves them), and empty strings.
    static let alphabet: [String] =
        (0..<0x80).map { String(Character(Unicode.Scalar(UInt8($0)))) } + ["é", "😀", "\u{2028}", "\u{2029}", "ß/"]

    static func pick<Element>(_ choices: [Element], _ random: inout SplitMix64) -> Element {
        choices[Int.random(in: 0..<choices.count, using: &random)]
    }

    static func randomText(_ random: inout SplitMix64) -> String {
        let length = Int.random(in: 0...12, using: &random)
        return (0..<length).map { _ in pick(alphabet, &random) }.joined()
    }

    static func randomOrder(_ random: inout SplitMix64) -> WireStoredOrder {
        let instant = RFC3339Timestamp(Date(timeIntervalSince1970: 1_768_469_400))
        var order = WireStoredOrder(
            StoredOrder(
                identifier: FullyQualifiedOrderIdentifier(orderTypeIdentifier: "t", orderIdentifier: "i"),
                updatedAt: instant, createdAt: instant, status: "open", merchantIdentifier: "m", merchantDisplayName: "M",
                teamIdentifier: "T", archiveSHA256: "00", archiveSize: 0, addedAt: Date()))
        order.orderTypeIdentifier = randomText(&random)
        order.orderIdentifier = randomText(&random)
        order.updatedAt = randomText(&random)
        order.createdAt = randomText(&random)
        order.status = randomText(&random)
        order.merchantIdentifier = randomText(&random)
        order.merchant = randomText(&random)
        order.teamIdentifier = randomText(&random)
        order.archiveSHA256 = randomText(&random)
        order.archiveSize = pick([0, 1, -1, Int.max, Int.min, Int.random(in: -1_000_000...1_000_000, using: &random)], &random)
        // Whole seconds, milliseconds and microseconds, before and after 1970, and far out.
        let seconds = Double(Int64.random(in: -5_000_000_000...300_000_000_000, using: &random))
        let fraction = pick([0, 0.5, 0.125, 0.000_001, Double(Int.random(in: 0..<1_000_000, using: &random)) / 1e6], &random)
        order.addedAt = Date(timeIntervalSince1970: seconds + fraction)
        order.replacedAt = Bool.random(using: &random) ? nil : Date(timeIntervalSince1970: seconds / 3)
        return order
    }

    @Test("a stored order: 2,000 generated values, every character of ASCII in every field")
    func storedOrder() throws {
        var random = SplitMix64(state: 28)
        for _ in 0..<2000 {
            let order = Self.randomOrder(&random)
            let written = try WireFormat.encode(order)
            let encoded = try WireFormat.makeEncoder().encode(order)
            #expect(written == encoded, "\(String(decoding: written, as: UTF8.self))")
            guard written == encoded else { return }
        }
    }

    @Test("numbers, booleans, null, arrays and nesting")
    func shapes() {
        var writer = WireJSONWriter()
        writer.beginArray()
        writer.integer(0)
        writer.integer(-42)
        writer.integer(Int.min)
        writer.boolean(true)
        writer.boolean(false)
        writer.null()
        writer.string(nil)
        writer.beginObject()
        writer.key("a\"b")
        writer.beginArray()
        writer.endArray()
        writer.key("c")
        writer.beginObject()
        writer.endObject()
        writer.endObject()
        writer.endArray()
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == #"[0,-42,-9223372036854775808,true,false,null,null,{"a\"b":[],"c":{}}]"#)
    }
}
