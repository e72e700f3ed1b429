import WalletPrimitives

/// What is wrong with an HTTP request itself, before any store is asked.
public enum ServiceRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body is longer than the route accepts.
    case bodyTooLarge(limit: Int)
    /// The body is not what the route reads; `path` is where (a JSON path), when known.
    case malformedBody(reason: String, path: String?)
    /// The body's media type is not one the route reads.
    case unsupportedMediaType(String, accepted: [String])
    /// A path segment or query parameter cannot be used.
    case invalidParameter(name: String, reason: String)
    /// No route answers this method and path.
    case noRoute
    /// A route answers this path, but not with this method; `allowed` are the methods it takes.
    case methodNotAllowed(method: String, allowed: [String])
    /// A header the request needs is missing, repeated or malformed (`Host`, for one).
    case invalidHeader(name: String, reason: String)
    /// The request's framing is broken (a chunk size that is not hex, a chunk of the wrong
    /// length, a transfer coding other than chunked): the connection cannot be read further.
    case malformedRequest(reason: String)
    /// The client sent too many such requests lately; it may try again after `retryAfter`
    /// seconds.
    case rateLimited(retryAfter: Int)
    /// The merchant API needs `Authorization: Bearer <API key>` with a key that is not revoked.
    case unauthenticated
    /// An `Idempotency-Key` the caller used within a day for another request (method, path or
    /// body differ).
    case idempotencyKeyReused(String)

    public var description: String {
        switch self {
        case .bodyTooLarge(let limit): "the request body is larger than \(limit) bytes"
        case .malformedBody(let reason, _): "the request body is malformed: \(reason)"
        case .unsupportedMediaType(let type, let accepted):
            "the body's media type \(MessageText.quote(type)) is not accepted here; send \(accepted.joined(separator: " or "))"
        case .invalidParameter(let name, let reason): "\(name): \(reason)"
        case .noRoute: "no such endpoint"
        case .methodNotAllowed(let method, let allowed):
            "\(MessageText.quote(method)) is not allowed here; this endpoint takes \(allowed.joined(separator: ", "))"
        case .invalidHeader(let name, let reason): "the \(name) header \(reason)"
        case .malformedRequest(let reason): "the request is malformed: \(reason)"
        case .rateLimited(let seconds): "too many requests from this address; try again in \(seconds) s"
        case .unauthenticated: "the merchant API needs an API key (Authorization: Bearer <key>) that exists and is not revoked"
        case .idempotencyKeyReused(let key):
            "the Idempotency-Key \(MessageText.quote(key)) was used within a day for another request; use a new key for a new request"
        }
    }
}

extension ServiceRequestError: WalletError {
    public var code: String {
        switch self {
        case .bodyTooLarge: "request.bodyTooLarge"
        case .malformedBody: "request.malformedBody"
        case .unsupportedMediaType: "request.unsupportedMediaType"
        case .invalidParameter: "request.invalidParameter"
        case .noRoute: "request.noRoute"
        case .methodNotAllowed: "request.methodNotAllowed"
        case .invalidHeader: "request.invalidHeader"
        case .malformedRequest: "request.malformed"
        case .rateLimited: "request.rateLimited"
        case .unauthenticated: "api.unauthenticated"
        case .idempotencyKeyReused: "request.idempotencyKeyReused"
        }
    }

    public var message: String { description }

    public var path: String? {
        switch self {
        case .malformedBody(_, let path): path
        case .invalidParameter(let name, _): name
        case .invalidHeader(let name, _): name
        default: nil
        }
    }

    public var category: ErrorCategory {
        switch self {
        case .bodyTooLarge, .malformedBody, .unsupportedMediaType, .invalidParameter, .invalidHeader, .malformedRequest,
            .idempotencyKeyReused:
            .invalidInput
        case .noRoute, .methodNotAllowed: .notFound
        // Temporary, like a restriction: the same request succeeds later.
        case .rateLimited: .restricted
        case .unauthenticated: .unauthorized
        }
    }
}
