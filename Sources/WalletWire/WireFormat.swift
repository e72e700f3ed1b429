import Foundation
import WalletPrimitives

/// The one JSON configuration of everything this package prints or serves: keys sorted, slashes
/// unescaped, instants as RFC 3339 text (`2026-11-05T09:30:00Z`), amounts as decimal strings
/// with their scale, and every key of a wire type present (`null` when unknown, see
/// ``Nullable``).
///
/// ```swift
/// let line = try WireFormat.line(WireStoredOrder(order))   // one JSON object, one line
/// ```
public enum WireFormat {
    /// A new encoder with the configuration, for callers that hand one to another library.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339Timestamp(date).text)
        }
        return encoder
    }

    /// Built once and never handed out, so its configuration cannot change under other callers.
    private static let encoder = makeEncoder()

    /// `value` as JSON bytes (written directly when it is ``WireJSONWritable``).
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        if let writable = value as? any WireJSONWritable {
            var writer = WireJSONWriter()
            writable.write(to: &writer)
            return Data(writer.bytes)
        }
        return try encoder.encode(value)
    }

    /// `value` as one line of JSON text (JSON Lines), without the newline.
    public static func line<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }
}
