import Foundation
import Hummingbird
import Logging
import NIOCore
import Synchronization
import WalletConsent
import WalletCore

/// The request context of every route: Hummingbird's core storage (logger with the request id,
/// route parameters), the client's address for the rate limits, and the request's log line.
/// Routes read bodies with their own limits (``ServiceLimits``), never through the framework's
/// decoder and its `maxUploadSize`.
public struct OrdersRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's IP address (without the port); `unknown` for a Unix socket or a closed channel.
    /// Behind a trusted proxy, the address it forwarded (``ForwardedClientMiddleware``).
    public package(set) var clientAddress: String {
        get { forwardedAddress ?? peer?.ipAddress ?? "unknown" }
        set { forwardedAddress = newValue }
    }
    /// The connection's peer, formatted only when a route asks for the address (a rate limit, a
    /// sign-in, a trusted proxy's check): most requests never do.
    private let peer: SocketAddress?
    private var forwardedAddress: String?
    /// The request came over TLS: to this server, or to a trusted proxy that says so.
    public package(set) var isSecure = false
    /// The origin (`https://host[:port]`) clients and browsers reach this service at: the
    /// configured public URL (``OrdersService/Configuration/publicURL``), else this request's own
    /// scheme and `Host`. The OAuth issuer identifier (RFC 8414, RFC 9207).
    public package(set) var publicOrigin = "http://localhost"
    /// What the request's one log line says; shared by the routes and ``ServiceMiddleware``.
    package let logLine = RequestLogLine()
    /// Who is calling, as the audience's authenticator resolved it (an API key's merchant, an
    /// access token's client, the signed-in owner); nil before that, or when nobody could be.
    /// Routes that need a caller are mounted on a ``CallerContext``, which holds it typed and not
    /// optional.
    public package(set) var caller: (any Sendable)?

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        peer = source.channel.remoteAddress
        // Hummingbird numbers requests in sequence; a random id tells a client nothing about how
        // many requests the service answers.
        logger[metadataKey: "hb.request.id"] = .string(Self.randomIdentifier())
    }

    /// 128 random bits in hex, from ``RandomBytePool`` (two `getrandom` calls per request were
    /// most of the request context's cost).
    package static func randomIdentifier() -> String {
        var bytes = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &bytes) { RandomBytePool.shared.fill($0) }
        return withUnsafeBytes(of: &bytes) { raw in
            String(unsafeUninitializedCapacity: 32) { text in
                let digits: StaticString = "0123456789abcdef"
                for (index, byte) in raw.enumerated() {
                    text[2 * index] = digits.utf8Start[Int(byte >> 4)]
                    text[2 * index + 1] = digits.utf8Start[Int(byte & 0x0F)]
                }
                return 32
            }
        }
    }
}

/// The one log line of a request: ``ServiceMiddleware`` writes `METHOD ROUTE STATUS`, followed
/// by what a route added; a route that answers without logging (a rate-limited device log) says
/// so.
package final class RequestLogLine: Sendable {
    private struct State {
        package var detail: String?
        package var suppressed = false
    }

    private let state = Mutex(State())

    /// Text after the status (already bounded by the route).
    package var detail: String? {
        get { state.withLock { $0.detail } }
        set { state.withLock { $0.detail = newValue } }
    }

    /// Whether no line is written for this request.
    package var isSuppressed: Bool {
        get { state.withLock { $0.suppressed } }
        set { state.withLock { $0.suppressed = newValue } }
    }
}
