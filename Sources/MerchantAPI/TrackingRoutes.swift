import Foundation
import HTTPTypes
import Hummingbird
import OrderStorage
import OrdersWebProtocol
import ServiceCore
import WalletCore
import WalletOrders
import WalletPrimitives
import WalletWire

/// Shipment events in (docs/tracking.md): the providers' webhooks at
/// `POST /api/v1/tracking/{provider}/{endpoint}`, signed with the endpoint's secret, and the
/// generic event at `POST /api/v1/tracking/events` with a merchant API key. Each answers `200`
/// with what the event did — applied, or why not — once that is durable; `401` for a body the
/// endpoint's secrets did not sign, `429` over the endpoint's rate.
struct TrackingRoutes: Sendable {
    let wallet: WalletStore
    let limits: ServiceLimits
    let webService: WebServiceURLPolicy
    let metrics: ServiceMetrics
    let rateLimiter: RateLimiter

    static let prefix = "/api/v1/tracking"
    static let mediaTypes = ["application/json"]

    func add(to router: Router<OrdersRequestContext>, table: RouteTable) {
        let tracking = router.group("api/v1/tracking")
        for provider in [TrackingProvider.afterShip, .easyPost] {
            table.add(.post, "\(provider.rawValue)/{endpoint}", prefix: Self.prefix, to: tracking) { request, context in
                try await webhook(provider, request, context: context)
            }
        }
        let events = tracking.group("events").add(middleware: APIKeyAuthenticator(wallet: wallet))
            .group(context: MerchantContext.self)
        table.add(.post, "", prefix: Self.prefix + "/events", to: events, use: genericEvent)
    }

    /// A provider's webhook: the endpoint's rate, then the body (at most
    /// ``OrderTracking/TrackingLimits/maximumBodySize``), then its signature, then the event.
    private func webhook(
        _ provider: TrackingProvider, _ request: Request, context: OrdersRequestContext
    ) async throws -> Response {
        try await counted(provider) {
            let endpoint = try context.parameters.require("endpoint")
            try admit(endpoint: "\(provider.rawValue)/\(endpoint)")
            try request.requireMediaType(Self.mediaTypes)
            let body = try await LimitedBody.collect(request, limit: TrackingLimits.maximumBodySize)
            let header = TrackingSignature(provider: provider).flatMap { HTTPField.Name($0.header) }
            return try await wallet.receiveTrackingWebhook(
                body, provider: provider, endpoint: endpoint, signature: header.flatMap { request.headers[$0] },
                webService: webService)
        }
    }

    /// `POST /api/v1/tracking/events`: the generic event, for the key's client.
    @Sendable func genericEvent(_ request: Request, context: MerchantContext) async throws -> Response {
        try await counted(.generic) {
            let client = context.caller.key.client
            try admit(endpoint: TrackingEndpoint.generic(client: client.rawValue))
            try request.requireMediaType(Self.mediaTypes)
            let body = try await LimitedBody.collect(request, limit: TrackingLimits.maximumBodySize)
            return try await wallet.merchantOrders(for: client).receiveTrackingEvent(body, webService: webService)
        }
    }

    /// The event's answer, and its count by provider and outcome (`stale` for a body signed too
    /// long ago, `refused` for every other refusal of the request, `failed` when the service
    /// could not apply it now).
    private func counted(
        _ provider: TrackingProvider, _ receive: () async throws -> TrackingResult
    ) async throws -> Response {
        let result: TrackingResult
        do {
            result = try await receive()
        } catch let error as ServiceRequestError {
            if case .rateLimited = error {} else { metrics.recordTrackingEvent(provider: provider.rawValue, outcome: "refused") }
            throw error
        } catch let error as TrackingError {
            // A replayed body is told apart from a forged or malformed one.
            let outcome = if case .stale = error { "stale" } else { "refused" }
            metrics.recordTrackingEvent(provider: provider.rawValue, outcome: outcome)
            throw error
        } catch {
            // Not the body's fault (orders restricted, no signing identity, the store): the
            // provider retries, and the event is applied then or by the sweep.
            metrics.recordTrackingEvent(provider: provider.rawValue, outcome: "failed")
            throw error
        }
        metrics.recordTrackingEvent(provider: provider.rawValue, outcome: result.outcome.rawValue)
        return Response.json(status: .ok, body: WireTrackingResult(result))
    }

    private func admit(endpoint: String) throws(ServiceRequestError) {
        guard rateLimiter.admit(client: endpoint) else {
            metrics.recordRateLimited(route: Self.prefix)
            let rate = limits.trackingRate.perSecond
            throw .rateLimited(retryAfter: rate > 0 ? max(1, Int((1 / rate).rounded(.up))) : 3600)
        }
    }
}
