import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import OrdersWebProtocol
import Tracing
import WalletOrders
import WalletPrimitives
import WalletWire

/// Wraps every route: refuses a request without exactly one `Host` (RFC 9112 §3.2) and closes
/// its connection (what follows on it cannot be trusted to be framed as the client meant),
/// refuses a path a browser would read as another host, or spelled otherwise than its route
/// (``OrdersWebProtocol/LocalPath``), gives the
/// response the request id (`X-Request-Id`, also in every log line of the request), turns errors
/// into the one JSON error shape with the status and headers from ``HTTPStatusTable``, writes the
/// request's one log line, counts it in ``ServiceMetrics``, and makes it a span of the tracer
/// when there is one.
package struct ServiceMiddleware: RouterMiddleware {
    package typealias Context = OrdersRequestContext

    package let metrics: ServiceMetrics
    /// Nil when the tracer is the no-op one: no span, no context read from the headers.
    package let tracer: (any Tracer)?
    package let routes: RouteTable

    /// `tracer` nil: the one bootstrapped with `InstrumentationSystem`, if any.
    package init(metrics: ServiceMetrics, tracer: (any Tracer)? = nil, routes: RouteTable) {
        self.metrics = metrics
        self.tracer = EffectiveTracer.resolve(tracer)
        self.routes = routes
    }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let tracer else { return try await answer(request, context: context, next: next, span: nil) }
        var parent = ServiceContext.current ?? .topLevel
        tracer.extract(request.headers, into: &parent, using: HTTPFieldsExtractor())
        // Named by the method until the route is known (OpenTelemetry's "{method} {route}").
        return try await tracer.withAnySpan(request.method.rawValue, context: parent, ofKind: .server) { span in
            try await answer(request, context: context, next: next, span: span)
        }
    }

    /// The request answered, whatever it threw; counted, logged, and told to `span`.
    private func answer(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response, span: (any Span)?
    ) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        do {
            try Self.checkHost(request)
            let target = request.head.path ?? "/"
            // A target in absolute form (`GET http://host/metrics/`), which `isRefused` leaves
            // alone, is checked as routed.
            guard !LocalPath.isRefused(target: target),
                target.utf8.first == UInt8(ascii: "/") || LocalPath.isCanonical(request.uri.path)
            else { throw ServiceRequestError.noRoute }
            response = try await next(request, context)
        } catch let error as ServiceRequestError where error.isHostMissingOrRepeated {
            response = Self.response(for: error, context: context)
            response.headers[.connection] = "close"
        } catch {
            response = self.response(for: error, request: request, context: context)
        }
        if let name = HTTPField.Name.requestID { response.headers[name] = context.id }
        let route = context.endpointPath ?? "unmatched"
        let duration = ContinuousClock.now - start
        metrics.recordRequest(
            route: route, method: request.method.rawValue, status: response.status.code, duration: duration)
        if let span {
            // The route template, never the path: paths carry order numbers and signed links' tokens.
            span.operationName = "\(request.method.rawValue) \(route)"
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["http.route"] = route
            span.attributes["http.response.status_code"] = response.status.code
            if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
        }
        if !context.logLine.isSuppressed {
            let detail = context.logLine.detail.map { " " + $0 } ?? ""
            context.logger.info(
                "\(request.method) \(route) \(response.status.code)\(detail)",
                metadata: ["hb.request.status": .stringConvertible(response.status.code)])
        }
        return response
    }

    /// Exactly one `Host`: the codec moves the first into `:authority` and leaves any other
    /// among the fields. Refused with ``ServiceRequestError/invalidHeader(name:reason:)`` naming
    /// `Host`.
    package static func checkHost(_ request: Request) throws(ServiceRequestError) {
        guard request.head.authority != nil else {
            throw .invalidHeader(name: "Host", reason: "is missing (HTTP/1.1 requires it)")
        }
        if let host = HTTPField.Name.secondHost, request.headers[host] != nil {
            throw .invalidHeader(name: "Host", reason: "appears more than once")
        }
    }

    /// The JSON error answer for anything a route threw.
    package func response(for error: any Error, request: Request, context: Context) -> Response {
        let walletError: any WalletError
        switch error {
        case let error as any WalletError:
            walletError = error
        case let error as HTTPError where error.status == .contentTooLarge:
            walletError = ServiceRequestError.bodyTooLarge(limit: context.maxUploadSize)
        case let error as HTTPError where error.status == .notFound:
            let allowed = routes.allowedMethods(forPath: request.uri.path)
            walletError =
                allowed.isEmpty
                ? ServiceRequestError.noRoute
                : ServiceRequestError.methodNotAllowed(method: request.method.rawValue, allowed: allowed)
        case let error as HTTPError where error.status.code < 500:
            walletError = ServiceRequestError.malformedBody(reason: error.body ?? error.status.reasonPhrase, path: nil)
        case let error as HTTPParserError:
            // The client's framing is broken: its fault, and nothing worth more than a debug line.
            context.logger.debug("malformed request: \(error)")
            var response = Self.response(
                for: ServiceRequestError.malformedRequest(reason: Self.describe(error)), context: context)
            response.headers[.connection] = "close"
            return response
        case is ChannelError, is NIOAsyncWriterError:
            // The connection closed under the route (the client left, or the read guard closed it):
            // nobody will read an answer.
            context.logger.debug("connection closed during the request: \(error)")
            return Response(status: .requestTimeout, headers: [.connection: "close"])
        default:
            context.logger.error("unexpected error: \(String(describing: error))")
            return Response.json(status: .internalServerError, body: WireError(InternalError()))
        }
        return Self.response(for: walletError, context: context)
    }

    package static func response(for error: any WalletError, context: Context) -> Response {
        let response = HTTPStatusTable.response(for: error)
        if response.status.code >= 500 {
            context.logger.error("\(error.code): \(error.message)")
        }
        if let refusal = error as? OAuthRefusal { context.logLine.detail = refusal.error.oauthError }
        return response
    }

    /// llhttp's names for what it found, in a sentence.
    package static func describe(_ error: HTTPParserError) -> String {
        switch error {
        case .invalidChunkSize: "a chunk size is not a hexadecimal number"
        case .strictModeAssertion, .invalidConstant: "a chunk is not the length its size says"
        case .unknown: "the framing cannot be parsed (an unsupported transfer coding?)"
        default: "the framing cannot be parsed (\(error))"
        }
    }
}

/// An error the service did not expect; its details go to the log, never to the client.
package struct InternalError: WalletError {
    package var code: String { "internal" }
    package var message: String { "the service failed to answer; the log has the details (look for the request id)" }
    package var category: ErrorCategory { .storage }
}

package extension HTTPField.Name {
    /// Optional only because the initializer validates; the literal is a valid name.
    static let requestID = Self("X-Request-Id")
    /// `Host` among the fields: a second one (the codec moves the first into `:authority`).
    /// HTTPTypes marks its own `.host` unavailable for that reason.
    static let secondHost = Self("Host")
}

package extension ServiceRequestError {
    /// The refusal of ``ServiceMiddleware/checkHost(_:)``.
    var isHostMissingOrRepeated: Bool {
        if case .invalidHeader(let name, _) = self { return name == "Host" }
        return false
    }
}

/// Reads a trace's context from request headers (`traceparent`, or whatever the tracer reads).
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from fields: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { fields[$0] }
    }
}
