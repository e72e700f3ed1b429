import Hummingbird
import Logging
import NIOCore
import Synchronization
import WalletCore

/// The request context of every route: Hummingbird's core storage (logger with the request id,
/// route parameters), the client's address for the rate limits, and the request's log line.
/// Routes read bodies with their own limits (``ServiceLimits``), never through the framework's
/// decoder and its `maxUploadSize`.
public struct OrdersRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's IP address (without the port); `unknown` for a Unix socket or a closed channel.
    public let clientAddress: String
    /// What the request's one log line says; shared by the routes and ``ServiceMiddleware``.
    let logLine = RequestLogLine()
    /// The merchant API key the request authenticated with, set by the merchant API's
    /// authenticator before its routes run; nil elsewhere.
    public internal(set) var apiKey: APIKey?

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
        // Hummingbird numbers requests in sequence; a random id tells a client nothing about how
        // many requests the service answers.
        logger[metadataKey: "hb.request.id"] = .string(Self.randomIdentifier())
    }

    /// 128 random bits in hex.
    static func randomIdentifier() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = String(generator.next() as UInt64, radix: 16)
        let low = String(generator.next() as UInt64, radix: 16)
        return String(repeating: "0", count: 16 - high.count) + high + String(repeating: "0", count: 16 - low.count) + low
    }
}

/// The one log line of a request: ``ServiceMiddleware`` writes `METHOD ROUTE STATUS`, followed
/// by what a route added; a route that answers without logging (a rate-limited device log) says
/// so.
final class RequestLogLine: Sendable {
    private struct State {
        var detail: String?
        var suppressed = false
    }

    private let state = Mutex(State())

    /// Text after the status (already bounded by the route).
    var detail: String? {
        get { state.withLock { $0.detail } }
        set { state.withLock { $0.detail = newValue } }
    }

    /// Whether no line is written for this request.
    var isSuppressed: Bool {
        get { state.withLock { $0.suppressed } }
        set { state.withLock { $0.suppressed = newValue } }
    }
}
