import HTTPTypes
import Hummingbird
import Synchronization

/// Behind a reverse proxy the operator trusts (`--trusted-proxy ADDRESS`), the client is the one
/// the proxy names: the right-most `X-Forwarded-For` address that is not itself a trusted proxy,
/// and TLS if `X-Forwarded-Proto` says `https`. From any other peer these headers are ignored —
/// anyone can send them. Without a proxy, a request is secure when this server speaks TLS.
package struct ForwardedClientMiddleware: RouterMiddleware {
    package typealias Context = OrdersRequestContext

    package let trustedProxies: Set<String>
    package let servesTLS: Bool
    /// ``OrdersService/Configuration/publicURL``, normalized.
    package let publicURL: String?
    /// Whether forwarded headers arriving with no trusted proxy were warned about: once per
    /// process, not once per request.
    package let forwardedWarning = OnceFlag()

    package init(trustedProxies: Set<String>, servesTLS: Bool, publicURL: String?) {
        self.trustedProxies = trustedProxies
        self.servesTLS = servesTLS
        self.publicURL = publicURL
    }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.isSecure = servesTLS
        if trustedProxies.isEmpty, !forwardedWarning.isDone,
            Self.has(.forwardedFor, in: request.headers) || Self.has(.forwardedProto, in: request.headers),
            forwardedWarning.claim()
        {
            let warning =
                "X-Forwarded-For and X-Forwarded-Proto from \(context.clientAddress) are ignored: no --trusted-proxy is "
                + "given, so every client behind that proxy shares its address for rate limits and cookies are "
                + "not Secure (docs/deployment.md); said once"
            context.logger.warning("\(warning)")
        }
        // With no trusted proxy the peer's address is never formatted for the comparison.
        if !trustedProxies.isEmpty, trustedProxies.contains(context.clientAddress) {
            let forwarded =
                HTTPField.Name.forwardedFor.map { request.headers[values: $0] }?.flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? []
            if let client = forwarded.reversed().first(where: { !trustedProxies.contains($0) && !$0.isEmpty }),
                client.utf8.count <= 64
            {
                context.clientAddress = client
            }
            if let name = HTTPField.Name.forwardedProto, let proto = request.headers[name] {
                context.isSecure = proto.lowercased() == "https"
            }
        }
        context.publicOrigin = publicURL ?? Self.origin(secure: context.isSecure, authority: request.head.authority)
        return try await next(request, context)
    }

    private static func has(_ name: HTTPField.Name?, in headers: HTTPFields) -> Bool {
        name.map { headers[$0] != nil } ?? false
    }

    /// `scheme://authority` from a request; an authority that is not a plain host (and port) —
    /// whatever a client put in `Host` — is `localhost`.
    package static func origin(secure: Bool, authority: String?) -> String {
        let scheme = secure ? "https" : "http"
        guard let authority, (1...255).contains(authority.utf8.count) else { return "\(scheme)://localhost" }
        // Byte by byte, allocating nothing: this runs for every request.
        var hasUppercase = false
        for byte in authority.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."),
                UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"):
                continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                hasUppercase = true
            default:
                return "\(scheme)://localhost"
            }
        }
        return scheme + "://" + (hasUppercase ? authority.lowercased() : authority)
    }
}

package extension HTTPField.Name {
    static let forwardedFor = Self("X-Forwarded-For")
    static let forwardedProto = Self("X-Forwarded-Proto")
    static let secFetchSite = Self("Sec-Fetch-Site")
}

/// A flag set once, by the first caller of ``claim()``.
package final class OnceFlag: Sendable {
    private let done = Atomic<Bool>(false)

    package var isDone: Bool { done.load(ordering: .relaxed) }

    /// True for the first call only.
    package func claim() -> Bool {
        done.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
    }
}
