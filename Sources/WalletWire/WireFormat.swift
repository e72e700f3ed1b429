import Foundation
import WalletPrimitives

/// The one JSON configuration of everything this package prints or serves: keys sorted, slashes
/// unescaped, instants as RFC 3339 text (`2026-11-05T09:30:00Z`), amounts as decimal strings
/// with their scale, and every key of a wire type present (`null` when unknown).
///
/// ```swift
/// let line = try WireFormat.line(WireStoredOrder(order))   // one JSON object, one line
/// ```
public enum WireFormat {
    /// A new encoder with the configuration (JSONEncoder is not `Sendable`, so each caller
    /// gets its own).
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339Timestamp(date).text)
        }
        return encoder
    }

    /// A decoder for what ``makeEncoder()`` writes (instants as RFC 3339 text).
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let timestamp = RFC3339Timestamp(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\(MessageText.quote(text)) is not an RFC 3339 date-time")
            }
            return timestamp.date
        }
        return decoder
    }

    /// `value` as JSON bytes.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        try makeEncoder().encode(value)
    }

    /// `value` as one line of JSON text (JSON Lines), without the newline.
    public static func line<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }
}
