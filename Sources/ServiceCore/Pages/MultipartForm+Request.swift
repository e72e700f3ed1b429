import Hummingbird
import OrdersWebProtocol

package extension MultipartForm {
    /// Reads the request's body, at most `limit` bytes, as a form: `415` unless its content type
    /// is `multipart/form-data` with a boundary.
    static func read(_ request: Request, limit: Int) async throws -> MultipartForm {
        let type = request.headers[.contentType] ?? ""
        guard let boundary = boundary(of: type) else {
            throw ServiceRequestError.unsupportedMediaType(type.isEmpty ? "none" : type, accepted: ["multipart/form-data"])
        }
        let body = try await LimitedBody.collect(request, limit: limit)
        return try MultipartForm(body: Array(body), boundary: boundary)
    }
}
