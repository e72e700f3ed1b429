import HTTPTypes
import Hummingbird

/// Behind a reverse proxy the operator trusts (`--trusted-proxy ADDRESS`), the client is the one
/// the proxy names: the right-most `X-Forwarded-For` address that is not itself a trusted proxy,
/// and TLS if `X-Forwarded-Proto` says `https`. From any other peer these headers are ignored —
/// anyone can send them. Without a proxy, a request is secure when this server speaks TLS.
struct ForwardedClientMiddleware: RouterMiddleware {
    typealias Context = OrdersRequestContext

    let trustedProxies: Set<String>
    let servesTLS: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        var context = context
        context.isSecure = servesTLS
        if trustedProxies.contains(context.clientAddress) {
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
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let forwardedFor = Self("X-Forwarded-For")
    static let forwardedProto = Self("X-Forwarded-Proto")
    static let secFetchSite = Self("Sec-Fetch-Site")
}
