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
    /// The merchant API needs `Authorization: Bearer <API key>` with a key that is not revoked.
    case unauthenticated

    public var description: String {
        switch self {
        case .bodyTooLarge(let limit): "the request body is larger than \(limit) bytes"
        case .malformedBody(let reason, _): "the request body is malformed: \(reason)"
        case .unsupportedMediaType(let type, let accepted):
            "the body's media type \(MessageText.quote(type)) is not accepted here; send \(accepted.joined(separator: " or "))"
        case .invalidParameter(let name, let reason): "\(name): \(reason)"
        case .noRoute: "no such endpoint"
        case .unauthenticated: "the merchant API needs an API key (Authorization: Bearer <key>) that exists and is not revoked"
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
        case .unauthenticated: "api.unauthenticated"
        }
    }

    public var message: String { description }

    public var path: String? {
        switch self {
        case .malformedBody(_, let path): path
        case .invalidParameter(let name, _): name
        default: nil
        }
    }

    public var category: ErrorCategory {
        switch self {
        case .bodyTooLarge, .malformedBody, .unsupportedMediaType, .invalidParameter: .invalidInput
        case .noRoute: .notFound
        case .unauthenticated: .unauthorized
        }
    }
}
