import Foundation
import HTTPTypes
import Hummingbird
import OrderPackage
import OrderStorage
import OrdersWebProtocol
import ServiceCore
import WalletCore
import WalletOrders
import WalletPrimitives
import WalletWire

/// The merchant API (`/api/v1`): merchant backends upload signed archives and ask about stored
/// orders with a bearer API key, which limits them to its order types (the access core's
/// entitlements, through `MerchantOrders`). The contract is `docs/openapi.json`.
package struct MerchantRoutes: Sendable {
    package typealias Context = OrdersRequestContext

    let wallet: WalletStore
    let limits: ServiceLimits
    /// The `webServiceURL` authored orders get, and the others the operator allowed.
    let webService: WebServiceURLPolicy
    let metrics: ServiceMetrics
    /// The tracking endpoints' rate (``ServiceLimits/trackingRate``), per endpoint.
    let trackingRate: RateLimiter

    static let archiveMediaTypes = ["application/vnd.apple.finance.order", "application/octet-stream"]

    /// - Parameter webService: the `webServiceURL` authored orders get (the service's public URL
    ///   and base path; nil leaves it absent), and the others the operator allowed by order type.
    package init(
        wallet: WalletStore, limits: ServiceLimits, webService: WebServiceURLPolicy, metrics: ServiceMetrics,
        trackingRate: RateLimiter
    ) {
        self.wallet = wallet
        self.limits = limits
        self.webService = webService
        self.metrics = metrics
        self.trackingRate = trackingRate
    }

    package func add(to router: Router<Context>, table: RouteTable) {
        let api = router.group("api/v1")
        table.add(.get, "openapi.json", prefix: "/api/v1", to: api, use: openAPI)
        // Every order route needs a key: authenticated once, before the route runs.
        let orders = api.group("orders").add(middleware: APIKeyAuthenticator(wallet: wallet))
            .group(context: MerchantContext.self)
        let prefix = "/api/v1/orders"
        table.add(.put, "", prefix: prefix, to: orders, use: saveOrder)
        table.add(.get, "", prefix: prefix, to: orders, use: listOrders)
        table.add(.get, "{orderTypeIdentifier}/{orderIdentifier}", prefix: prefix, to: orders, use: containsOrder)
        table.add(.delete, "{orderTypeIdentifier}/{orderIdentifier}", prefix: prefix, to: orders, use: removeOrder)
        let content = OrderContentRoutes(wallet: wallet, limits: limits, webService: webService)
        table.add(.put, "{orderTypeIdentifier}/{orderIdentifier}/content", prefix: prefix, to: orders, use: content.replace)
        table.add(.patch, "{orderTypeIdentifier}/{orderIdentifier}/content", prefix: prefix, to: orders, use: content.patch)
        TrackingRoutes(wallet: wallet, limits: limits, webService: webService, metrics: metrics, rateLimiter: trackingRate)
            .add(to: router, table: table)
    }

    /// `PUT /api/v1/orders`: saveOrder. `201` a new order, `200` a newer or the same version,
    /// `409` a newer version is stored (or a conflict), `422` invalid, `403` not the key's type.
    @Sendable func saveOrder(_ request: Request, context: MerchantContext) async throws -> Response {
        let store = merchantOrders(context)
        try request.requireMediaType(Self.archiveMediaTypes)
        let archive = try await LimitedBody.collect(request, limit: limits.archiveBodySize)
        let prepared: PreparedOrder
        switch store.prepareOrder(signedArchive: archive) {
        case .valid(let order): prepared = order.uploaded(by: context.caller.key.identifier)
        // The client's 422 with the report (the error table's mapping of this code).
        case .invalid(let report): throw OrderStoreError.invalidArchive(report)
        }
        let (result, decision) = try await store.saveOrderWithDecision(prepared)
        let outcome = MerchantSaveAnswer(
            outcome: WireSaveOutcome(file: "request body", result: result, report: prepared.report),
            customerPage: result == .added ? Self.customerPage(prepared.report, now: wallet.configuration.clock()) : nil)
        let status: HTTPResponse.Status =
            switch (result, decision) {
            case (.added, .insert?): .created
            case (.added, _): .ok
            case (.newerExisting, _): .conflict
            // The service's consent prompt always adds; a custom one declining is a refusal.
            case (.cancelled, _): .forbidden
            }
        return Response.json(status: status, body: outcome)
    }

    /// `GET /api/v1/orders/{type}/{id}[?updatedDate=RFC3339]`: containsOrder and the stored
    /// facts; `404` with `"result": "notFound"` when not stored (or not the key's type).
    @Sendable func containsOrder(_ request: Request, context: MerchantContext) async throws -> Response {
        let store = merchantOrders(context)
        let identifier = try PathParameter.orderIdentifier(in: context)
        var updatedAt: RFC3339Timestamp?
        if let text = request.uri.queryParameters.get("updatedDate") {
            guard let timestamp = RFC3339Timestamp(text) else {
                throw ServiceRequestError.invalidParameter(name: "updatedDate", reason: "not an RFC 3339 timestamp")
            }
            updatedAt = timestamp
        }
        // One read answers both: the stored facts, and containsOrder compared with them.
        let stored = try await store.order(identifier)
        let result = ContainsOrderResult(stored: stored?.updatedAt, comparedWith: updatedAt)
        return Response.json(
            status: stored == nil ? .notFound : .ok,
            written: MerchantOrderAnswer(identifier: identifier, result: result.rawValue, order: stored.map(WireStoredOrder.init))
        )
    }

    /// `GET /api/v1/orders?type=T&limit=N&cursor=C`: the key's orders, most recently updated
    /// first, a page at a time.
    @Sendable func listOrders(_ request: Request, context: MerchantContext) async throws -> Response {
        let store = merchantOrders(context)
        let parameters = request.uri.queryParameters
        var limit = 100
        if let text = parameters.get("limit") {
            guard let value = Int(text), (1...limits.pageSize).contains(value) else {
                throw ServiceRequestError.invalidParameter(name: "limit", reason: "must be 1…\(limits.pageSize)")
            }
            limit = value
        }
        // An empty cursor is no cursor: the first page (the OpenAPI document allows one).
        let offset = try parameters.get("cursor").flatMap { $0.isEmpty ? nil : $0 }.map(PageCursor.offset(from:)) ?? 0
        var query = OrderQuery(limit: limit + 1, offset: offset)
        if let type = parameters.get("type") { query.orderTypeIdentifier = type }
        var orders = try await store.orders(matching: query)
        let hasMore = orders.count > limit
        orders = Array(orders.prefix(limit))
        return Response.json(
            status: .ok,
            written: MerchantOrderPage(
                orders: orders.map(WireStoredOrder.init), nextCursor: hasMore ? PageCursor.cursor(offset: offset + limit) : nil))
    }

    /// `DELETE /api/v1/orders/{type}/{id}`: `200 {"removed": true}`, or `404` with
    /// `"removed": false`.
    @Sendable func removeOrder(_ request: Request, context: MerchantContext) async throws -> Response {
        let store = merchantOrders(context)
        let identifier = try PathParameter.orderIdentifier(in: context)
        let removed = try await store.removeOrder(identifier)
        return Response.json(
            status: removed ? .ok : .notFound, body: WireOrderAnswer(identifier, removed: removed))
    }

    @Sendable func openAPI(_ request: Request, context: Context) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: MerchantOpenAPI.document)))
    }

    /// The path of the saved version's customer page, signed with its token (none without one).
    static func customerPage(_ report: VerificationReport, now: Date) -> String? {
        guard let order = report.order else { return nil }
        return OrderPageLink.answerPath(
            for: FullyQualifiedOrderIdentifier(
                orderTypeIdentifier: order.orderTypeIdentifier, orderIdentifier: order.orderIdentifier),
            authenticationToken: order.authenticationToken, now: now)
    }

    /// The client the request's API key acts as.
    private func merchantOrders(_ context: MerchantContext) -> MerchantOrders {
        wallet.merchantOrders(for: context.caller.key.client)
    }
}

/// The answer of `PUT /api/v1/orders`: the CLI's save outcome, and the customer page's signed
/// path when the version was added.
struct MerchantSaveAnswer: Encodable, Sendable {
    var outcome: WireSaveOutcome
    var customerPage: String?

    private enum CodingKeys: String, CodingKey {
        case customerPage
    }

    func encode(to encoder: any Encoder) throws {
        try outcome.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(customerPage, forKey: .customerPage)
    }
}

/// The answer of `GET /api/v1/orders/{type}/{id}`.
struct MerchantOrderAnswer: Codable, Sendable {
    var orderTypeIdentifier: String
    var orderIdentifier: String
    var result: String
    @Nullable var order: WireStoredOrder?

    init(identifier: FullyQualifiedOrderIdentifier, result: String, order: WireStoredOrder?) {
        orderTypeIdentifier = identifier.orderTypeIdentifier
        orderIdentifier = identifier.orderIdentifier
        self.result = result
        self.order = order
    }
}

extension MerchantOrderAnswer: WireJSONWritable {
    func write(to writer: inout WireJSONWriter) {
        writer.beginObject()
        writer.key("order")
        if let order { order.write(to: &writer) } else { writer.null() }
        writer.key("orderIdentifier")
        writer.string(orderIdentifier)
        writer.key("orderTypeIdentifier")
        writer.string(orderTypeIdentifier)
        writer.key("result")
        writer.string(result)
        writer.endObject()
    }
}

/// One page of `GET /api/v1/orders`.
struct MerchantOrderPage: Codable, Sendable {
    var orders: [WireStoredOrder]
    @Nullable var nextCursor: String?
}

extension MerchantOrderPage: WireJSONWritable {
    func write(to writer: inout WireJSONWriter) {
        writer.beginObject()
        writer.key("nextCursor")
        writer.string(nextCursor)
        writer.key("orders")
        writer.beginArray()
        for order in orders { order.write(to: &writer) }
        writer.endArray()
        writer.endObject()
    }
}

/// An opaque page cursor. Today it carries the offset of the next page; clients must treat it as
/// opaque so that a keyset cursor can replace it.
enum PageCursor {
    /// `o` and the offset in decimal: the OpenAPI document's pattern `^(o[0-9]{1,12})?$` says
    /// exactly what is accepted, so a client (or schemathesis) can tell a cursor from garbage.
    /// Clients treat it as opaque.
    static func cursor(offset: Int) -> String {
        "o\(offset)"
    }

    static func offset(from cursor: String) throws(ServiceRequestError) -> Int {
        let digits = cursor.utf8.dropFirst()
        guard cursor.utf8.first == UInt8(ascii: "o"), (1...12).contains(digits.count),
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let offset = Int(Substring(digits))
        else { throw .invalidParameter(name: "cursor", reason: "not a cursor this service gave") }
        return offset
    }
}
