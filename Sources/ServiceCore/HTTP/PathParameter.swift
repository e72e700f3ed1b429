import Hummingbird
import OrderStorage
import OrdersWebProtocol

/// Route parameters, percent-decoded: identifiers are any non-empty strings, and a `/` inside
/// one arrives as `%2F`.
package enum PathParameter {
    package static func decoded(_ name: String, in context: some RequestContext) throws(ServiceRequestError) -> String {
        guard let raw = context.parameters.get(name) else {
            throw .invalidParameter(name: name, reason: "missing")
        }
        return try PathIdentifier.decoded(raw, name: name)
    }

    /// `{orderTypeIdentifier}/{orderIdentifier}`.
    package static func orderIdentifier(
        in context: some RequestContext
    ) throws(ServiceRequestError) -> FullyQualifiedOrderIdentifier {
        FullyQualifiedOrderIdentifier(
            orderTypeIdentifier: try decoded("orderTypeIdentifier", in: context),
            orderIdentifier: try decoded("orderIdentifier", in: context))
    }
}
