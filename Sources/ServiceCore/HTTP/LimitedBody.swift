import Foundation
import Hummingbird
import OrdersWebProtocol

/// Request bodies read whole, up to a limit per route.
package enum LimitedBody {
    /// The body, or ``ServiceRequestError/bodyTooLarge(limit:)`` as soon as more than `limit`
    /// bytes arrive (a `Content-Length` over it is refused before reading).
    ///
    /// The buffer is reserved once — the declared length, or the limit for a body without one —
    /// rather than grown by doubling, which held up to twice the limit for a body near it. A
    /// reservation the body never fills costs address space, not memory.
    package static func collect(_ request: Request, limit: Int) async throws -> Data {
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        if let declared, declared > limit {
            throw ServiceRequestError.bodyTooLarge(limit: limit)
        }
        var collected = Data()
        collected.reserveCapacity(max(0, min(declared ?? limit, limit)))
        for try await buffer in request.body {
            guard collected.count + buffer.readableBytes <= limit else {
                throw ServiceRequestError.bodyTooLarge(limit: limit)
            }
            collected.append(contentsOf: buffer.readableBytesView)
        }
        return collected
    }
}
