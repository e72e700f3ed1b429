import Hummingbird
import OrdersWebProtocol

package extension Request {
    /// Throws `415` unless the body's media type (parameters aside, case-insensitively) is one of
    /// `accepted`; a request without `Content-Type` is taken as sending the first.
    func requireMediaType(_ accepted: [String]) throws(ServiceRequestError) {
        guard let type = headers[.contentType] else { return }
        let essence = type.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
        guard accepted.contains(essence) else { throw .unsupportedMediaType(type, accepted: accepted) }
    }
}
