import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OrderStorage
import OrdersWebProtocol
import ServiceCore
import WalletOrders
import WalletPrimitives

/// Apple's Orders web service, the five endpoints Wallet devices call (ORDER-FORMAT.md §7), on
/// ``WalletOrders/OrderWebService``.
package struct DeviceRoutes: Sendable {
    package typealias Context = OrdersRequestContext

    let webService: OrderWebService
    let limits: ServiceLimits
    let rateLimits: RateLimits
    let metrics: ServiceMetrics
    let archives: ArchiveCache

    package init(
        webService: OrderWebService, limits: ServiceLimits, rateLimits: RateLimits, metrics: ServiceMetrics,
        archives: ArchiveCache
    ) {
        self.webService = webService
        self.limits = limits
        self.rateLimits = rateLimits
        self.metrics = metrics
        self.archives = archives
    }

    package func add(to group: RouterGroup<Context>, prefix: String, table: RouteTable) {
        let registration = "v1/devices/{deviceIdentifier}/registrations/{orderTypeIdentifier}/{orderIdentifier}"
        table.add(
            .get, "v1/devices/{deviceIdentifier}/registrations/{orderTypeIdentifier}", prefix: prefix, to: group,
            use: changedOrders)
        table.add(.get, "v1/orders/{orderTypeIdentifier}/{orderIdentifier}", prefix: prefix, to: group, use: order)
        table.add(.post, registration, prefix: prefix, to: group, use: register)
        table.add(.delete, registration, prefix: prefix, to: group, use: unregister)
        table.add(.post, "v1/log", prefix: prefix, to: group, use: log)
    }

    /// 1. The device's registered orders changed after its tag: `200` with the identifiers and
    /// the next tag, or `204`.
    @Sendable func changedOrders(_ request: Request, context: Context) async throws -> Response {
        let device = try PathParameter.decoded("deviceIdentifier", in: context)
        let type = try PathParameter.decoded("orderTypeIdentifier", in: context)
        let query = request.uri.queryParameters
        // `ordersModifiedSince` is what devices send; Apple's parameter table calls it `lastModified`.
        let tagText = query.get("ordersModifiedSince") ?? query.get("lastModified")
        guard
            let changes = try await webService.changedOrders(
                deviceIdentifier: device, orderTypeIdentifier: type, since: OrderChangeTag(text: tagText))
        else { return Response(status: .noContent) }
        return Response.json(
            status: .ok,
            body: ChangedOrders(orderIdentifiers: changes.orderIdentifiers, lastModified: changes.lastModified.description))
    }

    /// 2. The signed archive, byte for byte, with `Last-Modified` and `ETag`; `304` when the
    /// device's copy is current.
    @Sendable func order(_ request: Request, context: Context) async throws -> Response {
        let identifier = try PathParameter.orderIdentifier(in: context)
        let token = token(of: request)
        // The version's facts first: enough to authenticate and to answer 304.
        var served = try await webService.order(identifier, authenticationToken: token, includingArchive: false)
        if Self.isNotModified(
            request.headers, tag: EntityTag(opaque: served.archiveSHA256), lastModified: served.updatedAt.secondsSinceEpoch)
        {
            return Response(status: .notModified, headers: Self.validators(of: served))
        }
        let body: ByteBuffer
        if let cached = archives[served.archiveSHA256] {
            body = cached
        } else {
            // Read again with the archive: the facts answered with are the archive's own, even if
            // a newer version was saved in between.
            served = try await webService.order(identifier, authenticationToken: token)
            body = ByteBuffer(bytes: served.archive ?? Data())
            archives.insert(body, digest: served.archiveSHA256)
        }
        var headers = Self.validators(of: served)
        headers[.contentType] = orderArchiveMediaType
        headers[.contentLength] = String(body.readableBytes)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    /// `ETag`, `Last-Modified` and `Cache-Control`, on `200` and `304` alike.
    static func validators(of served: ServedOrder) -> HTTPFields {
        [
            .eTag: EntityTag(opaque: served.archiveSHA256).headerValue,
            .lastModified: HTTPDate.format(served.updatedAt.secondsSinceEpoch),
            .cacheControl: "private, no-cache",
        ]
    }

    /// RFC 9110 §13.2.2: `If-None-Match` decides when present; otherwise `If-Modified-Since`
    /// (an HTTP-date, or epoch seconds; anything else is ignored).
    static func isNotModified(_ headers: HTTPFields, tag: EntityTag, lastModified: Int64) -> Bool {
        let ifNoneMatch = headers[values: .ifNoneMatch]
        if !ifNoneMatch.isEmpty {
            return ifNoneMatch.contains { tag.isMatched(byIfNoneMatch: $0) }
        }
        guard let since = headers[.ifModifiedSince].flatMap({ HTTPDate.parse($0.trimmingSpaces) }) else { return false }
        return lastModified <= since
    }

    /// 3. Registers the device for the order's pushes: `201` new, `200` updated.
    @Sendable func register(_ request: Request, context: Context) async throws -> Response {
        try admitRegistration(context)
        let device = try PathParameter.decoded("deviceIdentifier", in: context)
        let identifier = try PathParameter.orderIdentifier(in: context)
        let body = try await LimitedBody.collect(request, limit: limits.bodySize)
        let pushToken = try PushTokenBody.parse(body)
        let result = try await webService.register(
            deviceIdentifier: device, pushToken: pushToken, for: identifier, authenticationToken: token(of: request))
        return Response(status: result == .created ? .created : .ok)
    }

    /// 4. Ends the registration: `200`, whether or not there was one.
    @Sendable func unregister(_ request: Request, context: Context) async throws -> Response {
        try admitRegistration(context)
        let device = try PathParameter.decoded("deviceIdentifier", in: context)
        let identifier = try PathParameter.orderIdentifier(in: context)
        try await webService.unregister(deviceIdentifier: device, for: identifier, authenticationToken: token(of: request))
        return Response(status: .ok)
    }

    /// 5. Device log lines: `200`, always. The entries of one request go into the request's one
    /// log line, cut at ``ServiceLimits/deviceLogLineLength`` bytes; a client over its rate (or
    /// all clients over theirs) is answered unread and unwritten, and counted.
    @Sendable func log(_ request: Request, context: Context) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limits.bodySize {
            throw ServiceRequestError.bodyTooLarge(limit: limits.bodySize)
        }
        guard rateLimits.deviceLog.admit(client: context.clientAddress) else {
            metrics.recordRateLimited(route: "/v1/log")
            context.logLine.isSuppressed = true
            // Closing, rather than reading the body only to drop it, is what makes a flood cheap.
            return Response(status: .ok, headers: [.connection: "close"])
        }
        let body = try await LimitedBody.collect(request, limit: limits.bodySize)
        let entries = try DeviceLogEntries.parse(body)
        context.logLine.detail = DeviceLogEntries.summary(of: entries, maximumLength: limits.deviceLogLineLength)
        return Response(status: .ok)
    }

    /// A registration (or its end) within the client's rate, or `429`.
    private func admitRegistration(_ context: Context) throws(ServiceRequestError) {
        guard rateLimits.registrations.admit(client: context.clientAddress) else {
            metrics.recordRateLimited(route: "/v1/devices/{deviceIdentifier}/registrations")
            let rate = limits.registrationRate.perSecond
            throw .rateLimited(retryAfter: rate > 0 ? max(1, Int((1 / rate).rounded(.up))) : 3600)
        }
    }

    private func token(of request: Request) -> String? {
        AuthorizationHeader.credentials(scheme: "AppleOrder", in: request.headers[.authorization])
    }
}

/// Apple's answer to endpoint 1.
struct ChangedOrders: Codable, Sendable {
    var orderIdentifiers: [String]
    var lastModified: String
}
