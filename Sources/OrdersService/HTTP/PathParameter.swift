import Hummingbird
import OrderStorage

/// Route parameters, percent-decoded: identifiers are any non-empty strings, and a `/` inside
/// one arrives as `%2F`.
enum PathParameter {
    static func decoded(_ name: String, in context: OrdersRequestContext) throws(ServiceRequestError) -> String {
        guard let raw = context.parameters.get(name) else {
            throw .invalidParameter(name: name, reason: "missing")
        }
        // Most identifiers need no decoding, and Foundation's decoder costs more than the rest
        // of the route.
        if !raw.isEmpty, !raw.utf8.contains(UInt8(ascii: "%")) { return raw }
        guard let value = raw.removingPercentEncoding, !value.isEmpty else {
            throw .invalidParameter(name: name, reason: "not a valid percent-encoded, non-empty string")
        }
        return value
    }

    /// `{orderTypeIdentifier}/{orderIdentifier}`.
    static func orderIdentifier(in context: OrdersRequestContext) throws(ServiceRequestError) -> FullyQualifiedOrderIdentifier {
        FullyQualifiedOrderIdentifier(
            orderTypeIdentifier: try decoded("orderTypeIdentifier", in: context),
            orderIdentifier: try decoded("orderIdentifier", in: context))
    }
}
