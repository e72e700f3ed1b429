import Foundation

/// An identifier in a request path (a device, order type or order identifier): any non-empty
/// string, percent-decoded (ORDER-FORMAT.md §7 — not only UUIDs).
public enum PathIdentifier {
    /// `raw` percent-decoded, or ``ServiceRequestError/invalidParameter(name:reason:)`` naming
    /// `name` when it is empty or not valid percent-encoding of UTF-8.
    ///
    /// ```swift
    /// try PathIdentifier.decoded("ORDER%2F1", name: "orderIdentifier")  // "ORDER/1"
    /// ```
    public static func decoded(_ raw: String, name: String) throws(ServiceRequestError) -> String {
        // Most identifiers need no decoding, and Foundation's decoder costs more than the rest
        // of the route.
        if !raw.isEmpty, !raw.utf8.contains(UInt8(ascii: "%")) { return raw }
        guard let value = raw.removingPercentEncoding, !value.isEmpty else {
            throw .invalidParameter(name: name, reason: "not a valid percent-encoded, non-empty string")
        }
        return value
    }
}
