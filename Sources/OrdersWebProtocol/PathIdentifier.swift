import Foundation
import WalletPrimitives

/// An identifier in a request path (a device, order type or order identifier): any non-empty
/// string without control characters, percent-decoded (ORDER-FORMAT.md §7 — not only UUIDs).
/// A control character (C0, DEL, C1 — `%00`, `%0A`, `%1B`…) is refused before any store is
/// asked: no identifier Wallet uses holds one, and they are what forges log lines.
public enum PathIdentifier {
    /// `raw` percent-decoded, or ``ServiceRequestError/invalidParameter(name:reason:)`` naming
    /// `name` when it is empty, not valid percent-encoding of UTF-8, or holds a control character.
    ///
    /// ```swift
    /// try PathIdentifier.decoded("ORDER%2F1", name: "orderIdentifier")  // "ORDER/1"
    /// ```
    public static func decoded(_ raw: String, name: String) throws(ServiceRequestError) -> String {
        // Most identifiers need no decoding, and Foundation's decoder costs more than the rest
        // of the route.
        if !raw.isEmpty, !raw.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 < 0x20 || $0 >= 0x7F }) { return raw }
        guard let value = raw.removingPercentEncoding, !value.isEmpty else {
            throw .invalidParameter(name: name, reason: "not a valid percent-encoded, non-empty string")
        }
        guard !value.unicodeScalars.contains(where: MessageText.isControl) else {
            throw .invalidParameter(name: name, reason: "holds a control character")
        }
        return value
    }
}
