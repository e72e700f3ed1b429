import Foundation
import Hummingbird
import OrdersWebProtocol

/// Request bodies read whole, up to a limit per route.
enum RequestBody {
    /// The body, or ``ServiceRequestError/bodyTooLarge(limit:)`` as soon as more than `limit`
    /// bytes arrive (a `Content-Length` over it is refused before reading).
    static func collect(_ request: Request, limit: Int) async throws -> Data {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw ServiceRequestError.bodyTooLarge(limit: limit)
        }
        var collected = Data()
        for try await buffer in request.body {
            guard collected.count + buffer.readableBytes <= limit else {
                throw ServiceRequestError.bodyTooLarge(limit: limit)
            }
            collected.append(contentsOf: buffer.readableBytesView)
        }
        return collected
    }
}
