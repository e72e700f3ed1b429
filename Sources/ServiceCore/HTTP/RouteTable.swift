import HTTPTypes
import Hummingbird
import Synchronization

/// Every route's path template and methods, so that a request for a known path with another
/// method is answered `405` with `Allow` (RFC 9110 §15.5.6) rather than `404`: Hummingbird's
/// router only says that nothing matched both.
///
/// Routes are added through ``add(_:_:to:use:)``, which registers them with the router and here
/// in one call, so the table cannot miss one.
package final class RouteTable: Sendable {
    private let templates = Mutex<[(segments: [String], methods: Set<HTTPRequest.Method>)]>([])

    package init() {}

    /// Adds `method path` to `target` and to the table; `prefix` is where `target` is mounted.
    package func add<Target: RouterMethods>(
        _ method: HTTPRequest.Method, _ path: String, prefix: String = "", to target: Target,
        use handler: @escaping @Sendable (Request, Target.Context) async throws -> Response
    ) {
        target.on(RouterPath(path), method: method, use: handler)
        let segments = (prefix + "/" + path).split(separator: "/").map(String.init)
        templates.withLock { templates in
            if let index = templates.firstIndex(where: { $0.segments == segments }) {
                templates[index].methods.insert(method)
            } else {
                templates.append((segments, [method]))
            }
        }
    }

    /// The methods a route takes for `path` (with `HEAD` wherever `GET` is, as the router
    /// generates it), sorted; empty when no template matches.
    package func allowedMethods(forPath path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let methods = templates.withLock { templates in
            templates.filter { template in
                template.segments.count == segments.count
                    && zip(template.segments, segments).allSatisfy { pattern, segment in
                        pattern.hasPrefix("{") || pattern == segment
                    }
            }.reduce(into: Set<HTTPRequest.Method>()) { $0.formUnion($1.methods) }
        }
        var names = Set(methods.map(\.rawValue))
        if names.contains("GET") { names.insert("HEAD") }
        return names.sorted()
    }
}
