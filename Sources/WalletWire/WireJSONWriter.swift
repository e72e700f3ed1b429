import Foundation
import WalletPrimitives

/// A wire type that writes its own JSON, byte for byte what ``WireFormat``'s `JSONEncoder`
/// writes for it, without going through `Codable`.
///
/// `Codable` encoding costs most of a served answer's time (a request answering
/// `GET /api/v1/orders/{type}/{id}` spent 15 % of the server's CPU in `JSONEncoder`); the types
/// the service answers with most often adopt this, and ``WireFormat/encode(_:)`` uses it when a
/// value does. Members must be written in the encoder's order (keys sorted by their UTF-8
/// bytes), every key present; `WireJSONWriterTests` compare both encodings of every adopting
/// type over generated values.
public protocol WireJSONWritable: Encodable {
    /// Appends the value's JSON to `writer`.
    func write(to writer: inout WireJSONWriter)
}

/// Appends compact JSON to a byte array, escaping strings as Foundation's `JSONEncoder` does
/// with `.withoutEscapingSlashes` (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other control
/// characters as `\u00xx`; everything else as its UTF-8 bytes).
///
/// ```swift
/// var writer = WireJSONWriter()
/// writer.beginObject()
/// writer.key("order"); writer.string(identifier)
/// writer.endObject()
/// ```
public struct WireJSONWriter: Sendable {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8] = []
    private var needsSeparator = false

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    /// Starts an object (`{`).
    public mutating func beginObject() { open(UInt8(ascii: "{")) }

    /// Ends the object begun last (`}`).
    public mutating func endObject() { close(UInt8(ascii: "}")) }

    /// Starts an array (`[`).
    public mutating func beginArray() { open(UInt8(ascii: "[")) }

    /// Ends the array begun last (`]`).
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsSeparator = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsSeparator = true
    }

    /// A member's key; the member's value is written next.
    public mutating func key(_ name: String) {
        separate()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        needsSeparator = false
    }

    /// A string value.
    public mutating func string(_ value: String) {
        separate()
        writeString(value)
        needsSeparator = true
    }

    /// A string value, or `null`.
    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// An integer value in decimal.
    public mutating func integer(_ value: Int) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        DecimalDigits.append(UInt64(value.magnitude), to: &bytes)
        needsSeparator = true
    }

    /// `true` or `false`.
    public mutating func boolean(_ value: Bool) {
        separate()
        appendLiteral(value ? "true" : "false")
        needsSeparator = true
    }

    /// An instant as ``WireFormat`` writes one: RFC 3339 text in UTC.
    public mutating func date(_ value: Date) {
        string(RFC3339Timestamp(value).text)
    }

    /// An instant, or `null`.
    public mutating func date(_ value: Date?) {
        if let value { date(value) } else { null() }
    }

    /// `null`.
    public mutating func null() {
        separate()
        appendLiteral("null")
        needsSeparator = true
    }

    private mutating func appendLiteral(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func separate() {
        if needsSeparator { bytes.append(UInt8(ascii: ",")) }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private mutating func writeString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                default:
                    appendLiteral("u00")
                    bytes.append(Self.hexDigit(byte >> 4))
                    bytes.append(Self.hexDigit(byte & 0xF))
                }
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
