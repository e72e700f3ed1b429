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

/// Authoring through the merchant API (docs/authoring.md): `PUT …/content` with a whole
/// order.json, `PATCH …/content` with a JSON Merge Patch. The service signs with the type's
/// identity, saves through saveOrder (pushing registered devices) and answers with the version
/// and Apple Pay's `orderDetails`. With an `Idempotency-Key`, the answer is kept a day with the
/// version, in its transaction, and a retry gets it again (`Idempotent-Replayed: true`) without
/// a second version.
struct OrderContentRoutes: Sendable {
    let wallet: WalletStore
    let limits: ServiceLimits
    /// The `webServiceURL` authored orders get (the service's public URL and base path), and the
    /// others the operator allowed.
    let webService: WebServiceURLPolicy

    static let orderMediaTypes = ["application/json", "multipart/form-data"]
    static let patchMediaTypes = ["application/merge-patch+json", "application/json"]
    // Both names are valid tokens: the initialiser cannot fail for them.
    static let idempotencyKeyField = HTTPField.Name("Idempotency-Key") ?? .contentType
    static let replayedField = HTTPField.Name("Idempotent-Replayed") ?? .contentType
    /// The longest `Idempotency-Key` kept (a UUID is 36 characters).
    static let idempotencyKeyLimit = 255

    /// The most files a multipart `PUT` may carry (order.json, images, localizations).
    static let maximumPackageFiles = 128

    /// `PUT /api/v1/orders/{type}/{id}/content`: `201` a new order, `200` its next version. The
    /// body is order.json alone (the current version's files kept), or `multipart/form-data` whose
    /// parts are the package's files, each named by its path in the package (`order.json`,
    /// `logo.png`, `en.lproj/order.strings`): they replace the current version's.
    @Sendable func replace(_ request: Request, context: MerchantContext) async throws -> Response {
        let type = request.headers[.contentType] ?? ""
        let method = request.method.rawValue
        if let boundary = MultipartForm.boundary(of: type) {
            let body = try await LimitedBody.collect(request, limit: limits.archiveBodySize)
            let form = try MultipartForm(body: Array(body), boundary: boundary, maximumParts: Self.maximumPackageFiles)
            return try await author(
                try Self.package(form), request: request, context: context,
                fingerprint: RequestFingerprint.digest(method: method, path: request.uri.path, mediaType: type, form: form))
        }
        guard !type.lowercased().hasPrefix("multipart/form-data") else {
            throw ServiceRequestError.malformedBody(reason: "a multipart/form-data body needs its boundary parameter", path: nil)
        }
        try request.requireMediaType(Self.orderMediaTypes)
        let body = try await LimitedBody.collect(request, limit: limits.archiveBodySize)
        return try await author(
            .replace(orderJSON: body, resources: nil), request: request, context: context,
            fingerprint: RequestFingerprint.digest(method: method, path: request.uri.path, mediaType: type, json: body))
    }

    /// A multipart body's files: order.json and the rest, each part once; a part named as a file
    /// the service writes itself (`manifest.json`, `signature`) is refused, never dropped.
    static func package(_ form: MultipartForm) throws -> OrderAuthoringContent {
        var files: [String: Data] = [:]
        for part in form.parts {
            guard !OrderAuthoringContent.isWrittenByTheService(part.name) else {
                throw AuthoringError.reservedFileName(part.name)
            }
            guard files[part.name] == nil else {
                throw ServiceRequestError.malformedBody(
                    reason: "two parts are named \(MessageText.quote(part.name))", path: part.name)
            }
            files[part.name] = Data(part.content)
        }
        guard let orderJSON = files.removeValue(forKey: OrderValidator.fileName) else {
            throw ServiceRequestError.malformedBody(reason: "no part is named order.json", path: nil)
        }
        return .replace(orderJSON: orderJSON, resources: files)
    }

    /// `PATCH /api/v1/orders/{type}/{id}/content`: the next version, `404` when nothing is stored.
    @Sendable func patch(_ request: Request, context: MerchantContext) async throws -> Response {
        try request.requireMediaType(Self.patchMediaTypes)
        let body = try await LimitedBody.collect(request, limit: limits.bodySize)
        return try await author(
            .mergePatch(body), request: request, context: context,
            fingerprint: RequestFingerprint.digest(
                method: request.method.rawValue, path: request.uri.path, mediaType: request.headers[.contentType] ?? "",
                json: body))
    }

    /// - Parameter fingerprint: the request's ``RequestFingerprint``, taken only for a request with
    ///   an `Idempotency-Key`: a retry under the same key is answered again only when its
    ///   fingerprint is the first request's.
    private func author(
        _ content: OrderAuthoringContent, request: Request, context: MerchantContext,
        fingerprint makeFingerprint: @autoclosure () -> String
    ) async throws -> Response {
        let identifier = try PathParameter.orderIdentifier(in: context)
        let key = context.caller.key
        let store = wallet.merchantOrders(for: key.client)
        // One instant for the answer, so that a receipt and the response hold the same bytes.
        let now = wallet.configuration.clock()
        guard let idempotencyKey = try Self.idempotencyKey(request) else {
            let authored = try await store.authorOrder(
                identifier, content: content, webService: webService, uploadedBy: key.identifier)
            return Response.json(status: Self.status(authored), encoded: Self.answer(authored, now: now))
        }
        let fingerprint = makeFingerprint()
        // The receipt under the key is read with everything else authoring reads: a retry is
        // answered from it, nothing authored.
        let idempotency = IdempotentAuthoring(key: ReceiptKey(caller: key.identifier, idempotencyKey: idempotencyKey)) {
            authored in
            RequestReceipt(
                caller: key.identifier, idempotencyKey: idempotencyKey, requestDigest: fingerprint,
                status: Int(Self.status(authored).code), answer: Self.answer(authored, now: now), createdAt: now)
        }
        do {
            switch try await store.authorOrder(
                identifier, content: content, webService: webService, uploadedBy: key.identifier, idempotency: idempotency)
            {
            case .authored(_, let receipt?):
                // The receipt's answer, made once: what a retry will be answered.
                return Response.json(status: HTTPResponse.Status(code: receipt.status), encoded: receipt.answer)
            case .authored(let authored, nil):
                return Response.json(status: Self.status(authored), encoded: Self.answer(authored, now: now))
            case .answeredBefore(let receipt):
                return try Self.replay(receipt, fingerprint: fingerprint)
            }
        } catch OrderStoreError.requestAlreadyAnswered {
            // The same key, at the same time: the request that committed first answers both.
            guard let receipt = try await store.requestReceipt(caller: key.identifier, idempotencyKey: idempotencyKey) else {
                throw OrderStoreError.requestAlreadyAnswered(idempotencyKey: idempotencyKey)
            }
            return try Self.replay(receipt, fingerprint: fingerprint)
        }
    }

    static func status(_ authored: AuthoredOrder) -> HTTPResponse.Status {
        authored.isFirstVersion ? .created : .ok
    }

    /// The answer's bytes: the version, its customer page (a link valid 30 days from `now`) and
    /// Apple Pay's `orderDetails`.
    static func answer(_ authored: AuthoredOrder, now: Date) -> Data {
        Response.jsonBytes(WireAuthoredOrder(authored, customerPage: MerchantRoutes.customerPage(authored.report, now: now)))
    }

    /// The kept answer, for the same request only.
    static func replay(_ receipt: RequestReceipt, fingerprint: String) throws(ServiceRequestError) -> Response {
        guard ConstantTime.equals(Array(receipt.requestDigest.utf8), Array(fingerprint.utf8)) else {
            throw .idempotencyKeyReused(receipt.idempotencyKey)
        }
        return Response.json(
            status: HTTPResponse.Status(code: receipt.status), encoded: receipt.answer, headers: [replayedField: "true"])
    }

    /// The request's `Idempotency-Key`: one header of 1…255 visible ASCII characters, bare or as a
    /// quoted structured-field string (draft-ietf-httpapi-idempotency-key-header); nil when absent.
    static func idempotencyKey(_ request: Request) throws(ServiceRequestError) -> String? {
        let values = request.headers[values: idempotencyKeyField]
        guard let first = values.first else { return nil }
        guard values.count == 1 else { throw .invalidHeader(name: "Idempotency-Key", reason: "is repeated") }
        var key = Substring(first)
        if key.count >= 2, key.first == "\"", key.last == "\"" { key = key.dropFirst().dropLast() }
        guard (1...idempotencyKeyLimit).contains(key.utf8.count),
            key.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != 0x22 })
        else {
            throw .invalidHeader(
                name: "Idempotency-Key", reason: "must be 1 to \(idempotencyKeyLimit) visible ASCII characters (a UUID, say)")
        }
        return String(key)
    }
}
