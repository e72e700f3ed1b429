import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OrderStorage
import OrdersWebProtocol
import WalletOrders
import WalletPrimitives

/// Apple's Orders web service, the five endpoints Wallet devices call (ORDER-FORMAT.md §7), on
/// ``WalletOrders/OrderWebService``.
struct DeviceRoutes: Sendable {
    typealias Context = OrdersRequestContext

    let webService: OrderWebService
    let limits: ServiceLimits
    let archives: ArchiveCache

    static let orderMediaType = "application/vnd.apple.finance.order"

    func add(to group: RouterGroup<Context>) {
        group.get("v1/devices/{deviceIdentifier}/registrations/{orderTypeIdentifier}", use: changedOrders)
        group.get("v1/orders/{orderTypeIdentifier}/{orderIdentifier}", use: order)
        group.post("v1/devices/{deviceIdentifier}/registrations/{orderTypeIdentifier}/{orderIdentifier}", use: register)
        group.delete("v1/devices/{deviceIdentifier}/registrations/{orderTypeIdentifier}/{orderIdentifier}", use: unregister)
        group.post("v1/log", use: log)
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
        headers[.contentType] = Self.orderMediaType
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
        let device = try PathParameter.decoded("deviceIdentifier", in: context)
        let identifier = try PathParameter.orderIdentifier(in: context)
        let body = try await RequestBody.collect(request, limit: limits.bodySize)
        let pushToken = try PushTokenBody.parse(body)
        let result = try await webService.register(
            deviceIdentifier: device, pushToken: pushToken, for: identifier, authenticationToken: token(of: request))
        return Response(status: result == .created ? .created : .ok)
    }

    /// 4. Ends the registration: `200`, whether or not there was one.
    @Sendable func unregister(_ request: Request, context: Context) async throws -> Response {
        let device = try PathParameter.decoded("deviceIdentifier", in: context)
        let identifier = try PathParameter.orderIdentifier(in: context)
        try await webService.unregister(deviceIdentifier: device, for: identifier, authenticationToken: token(of: request))
        return Response(status: .ok)
    }

    /// 5. Device log lines, written to the service log with the request id: `200`.
    @Sendable func log(_ request: Request, context: Context) async throws -> Response {
        let body = try await RequestBody.collect(request, limit: limits.bodySize)
        let entries = try DeviceLogEntries.parse(body)
        for entry in entries.prefix(limits.logEntries) {
            let line = entry.count > limits.logEntryLength ? String(entry.prefix(limits.logEntryLength)) + "…" : entry
            context.logger.notice("device log: \(MessageText.escapingControlCharacters(line))")
        }
        if entries.count > limits.logEntries {
            context.logger.notice("device log: \(entries.count - limits.logEntries) more lines not written")
        }
        return Response(status: .ok)
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
