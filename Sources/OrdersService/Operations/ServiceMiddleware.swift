import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OrdersWebProtocol
import WalletPrimitives
import WalletWire

/// Wraps every route: gives the response the request id (`X-Request-Id`, also in every log line
/// of the request), turns errors into the one JSON error shape with the status from
/// ``HTTPStatusTable``, logs one line per request, and counts it in ``ServiceMetrics``.
struct ServiceMiddleware: RouterMiddleware {
    typealias Context = OrdersRequestContext

    let metrics: ServiceMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = Self.response(for: error, context: context)
        }
        if let name = HTTPField.Name.requestID { response.headers[name] = context.id }
        let route = context.endpointPath ?? "unmatched"
        let duration = ContinuousClock.now - start
        metrics.recordRequest(
            route: route, method: request.method.rawValue, status: response.status.code, duration: duration)
        context.logger.info(
            "\(request.method) \(route) \(response.status.code)",
            metadata: ["hb.request.status": .stringConvertible(response.status.code)])
        return response
    }

    /// The JSON error answer for anything a route threw.
    static func response(for error: any Error, context: Context) -> Response {
        let walletError: any WalletError
        switch error {
        case let error as any WalletError:
            walletError = error
        case let error as HTTPError where error.status == .contentTooLarge:
            walletError = ServiceRequestError.bodyTooLarge(limit: context.maxUploadSize)
        case let error as HTTPError where error.status == .notFound:
            walletError = ServiceRequestError.noRoute
        case let error as HTTPError where error.status.code < 500:
            walletError = ServiceRequestError.malformedBody(reason: error.body ?? error.status.reasonPhrase, path: nil)
        default:
            context.logger.error("unexpected error: \(String(describing: error))")
            return Response.json(status: .internalServerError, body: WireError(InternalError()))
        }
        if HTTPStatusTable.status(of: walletError).code >= 500 {
            context.logger.error("\(walletError.code): \(walletError.message)")
        }
        return Response.json(status: HTTPStatusTable.status(of: walletError), body: WireError(walletError))
    }
}

/// An error the service did not expect; its details go to the log, never to the client.
struct InternalError: WalletError {
    var code: String { "internal" }
    var message: String { "the service failed to answer; the log has the details (look for the request id)" }
    var category: ErrorCategory { .storage }
}

extension HTTPField.Name {
    /// Optional only because the initializer validates; the literal is a valid name.
    static let requestID = Self("X-Request-Id")
}
