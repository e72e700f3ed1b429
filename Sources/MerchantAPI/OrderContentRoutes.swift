import Foundation
import HTTPTypes
import Hummingbird
import OrderPackage
import OrderStorage
import OrdersWebProtocol
import ServiceCore
import WalletCore
import WalletOrders
import WalletWire

/// Authoring through the merchant API (docs/authoring.md): `PUT …/content` with a whole
/// order.json, `PATCH …/content` with a JSON Merge Patch. The service signs with the type's
/// identity, saves through saveOrder (pushing registered devices) and answers with the version
/// and Apple Pay's `orderDetails`.
struct OrderContentRoutes: Sendable {
    let wallet: WalletStore
    let limits: ServiceLimits
    /// The `webServiceURL` for orders that name none: the service's public URL and base path.
    let serviceURL: String?

    static let orderMediaTypes = ["application/json"]
    static let patchMediaTypes = ["application/merge-patch+json", "application/json"]

    /// `PUT /api/v1/orders/{type}/{id}/content`: `201` a new order, `200` its next version.
    @Sendable func replace(_ request: Request, context: MerchantContext) async throws -> Response {
        try Self.requireMediaType(request, accepted: Self.orderMediaTypes)
        let body = try await LimitedBody.collect(request, limit: limits.archiveBodySize)
        return try await author(.replace(orderJSON: body, resources: nil), context: context)
    }

    /// `PATCH /api/v1/orders/{type}/{id}/content`: the next version, `404` when nothing is stored.
    @Sendable func patch(_ request: Request, context: MerchantContext) async throws -> Response {
        try Self.requireMediaType(request, accepted: Self.patchMediaTypes)
        let body = try await LimitedBody.collect(request, limit: limits.bodySize)
        return try await author(.mergePatch(body), context: context)
    }

    private func author(_ content: OrderAuthoringContent, context: MerchantContext) async throws -> Response {
        let identifier = try PathParameter.orderIdentifier(in: context)
        let store = wallet.financeStore(for: context.caller.key.client)
        let authored = try await store.authorOrder(
            identifier, content: content, serviceURL: serviceURL, uploadedBy: context.caller.key.identifier)
        let page = MerchantRoutes.customerPage(authored.report, now: wallet.configuration.clock())
        return Response.json(
            status: authored.isFirstVersion ? .created : .ok, body: WireAuthoredOrder(authored, customerPage: page))
    }

    /// A body's media type (parameters aside, case-insensitively) must be one the route reads; a
    /// missing `Content-Type` is taken as the route's first.
    static func requireMediaType(_ request: Request, accepted: [String]) throws(ServiceRequestError) {
        guard let type = request.headers[.contentType] else { return }
        let essence = type.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
        guard accepted.contains(essence) else { throw ServiceRequestError.unsupportedMediaType(type, accepted: accepted) }
    }
}
