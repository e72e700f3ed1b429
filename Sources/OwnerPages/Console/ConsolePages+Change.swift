import Foundation
import HTTPTypes
import Hummingbird
import OrderPackage
import OrderStorage
import OrdersWebProtocol
import ServiceCore
import WalletOrders
import WalletPrimitives

/// Changing an order from its console page (issue 43, item 3): the order's status and each
/// fulfillment's, previewed as the fields that will change, then signed with the type's identity
/// and saved through the same path as the merchant API's `PATCH …/content`.
extension ConsolePages {
    /// One fulfillment's status select.
    struct FulfillmentChoice {
        var field: String
        var label: String
        var choices: [Choice]
    }

    struct ChangeModel: PageModel {
        var frame: PageFrame
        var back: String
        var identifier: String
        var formToken: String
        var action: String
        var changes: [DiffRow]
        /// The form's choices, carried to the confirmation: it derives its patch from them again
        /// against the version previewed, so that it signs what the preview showed and nothing a
        /// client could add.
        var choices: [FormChoice]
        /// The version the preview was made from: a confirmation for another is shown again.
        var basis: String
    }

    /// One choice of the change form, as a hidden field of the confirmation.
    struct FormChoice {
        var name: String
        var value: String
    }

    /// The order's status and each fulfillment's, as selects of every value the format allows.
    static func changeChoices(_ order: Order) -> (statuses: [Choice], fulfillments: [FulfillmentChoice]) {
        let statuses = Order.Status.allCases.map { Choice(value: $0.rawValue, label: $0.rawValue, selected: $0 == order.status) }
        let fulfillments = (order.fulfillments ?? []).enumerated().map { index, fulfillment in
            let values: [String] =
                switch fulfillment {
                case .shipping: Order.ShippingFulfillment.Status.allCases.map(\.rawValue)
                case .pickup: Order.PickupFulfillment.Status.allCases.map(\.rawValue)
                }
            return FulfillmentChoice(
                field: "fulfillment.\(index)", label: "Fulfillment \(fulfillment.fulfillmentIdentifier)",
                choices: values.map { Choice(value: $0, label: $0, selected: $0 == fulfillment.statusName) })
        }
        return (statuses, fulfillments)
    }

    /// `POST /console/orders/{type}/{id}/change`: `step=preview` shows what the form's choices
    /// change, `step=sign` signs and saves them — derived again from the same choices against the
    /// version previewed, never a patch the client sends, and only while that version is current;
    /// otherwise the preview is shown again from the current version.
    @Sendable func change(_ request: Request, context: OwnerContext) async throws -> Response {
        let session = context.caller.session
        let fields = try await PageForm.read(request)
        try PageForm.checkToken(fields, expected: session.formToken)
        let identifier = try PathParameter.orderIdentifier(in: context)
        var (stored, current) = try await currentVersion(identifier)
        let patch = Self.patch(fields, current: current)
        if fields.value("step") == "sign", fields.value("basis") == stored.archiveSHA256, patch != .object(JSONObject()) {
            do {
                _ = try await wallet.authorOrder(
                    identifier, content: .mergePatch(Data(patch.serialized.utf8)), webService: webService,
                    basis: stored.archiveSHA256)
                return PageResponse.redirect(to: Self.orderPath(identifier) + "?done=signed")
            } catch AuthoringError.versionChanged {
                (stored, current) = try await currentVersion(identifier)  // previewed again, from the new version
            }
        }
        let composed = try AuthoredOrderContent(
            JSONMergePatch.apply(Self.patch(fields, current: current), to: current),
            orderTypeIdentifier: identifier.orderTypeIdentifier, orderIdentifier: identifier.orderIdentifier,
            stored: (current, stored.updatedAt), now: wallet.configuration.clock(), webService: webService)
        let changes = OrderJSONDiff(from: current, to: composed.document).changes.filter { $0.path != "updatedAt" }
        return PageResponse.render(
            "consoleChange",
            ChangeModel(
                frame: PageFrame(
                    title: "Change – \(identifier.orderIdentifier)", text: .console, session: session.formToken, console: true),
                back: Self.orderPath(identifier), identifier: identifier.orderIdentifier, formToken: session.formToken,
                action: request.uri.path,
                changes: changes.map {
                    DiffRow(path: $0.path, kind: $0.kind.rawValue, before: $0.before ?? "", after: $0.after ?? "")
                },
                choices: Self.choices(fields), basis: stored.archiveSHA256))
    }

    /// The order's current version and its order.json; no order, no page.
    private func currentVersion(_ identifier: FullyQualifiedOrderIdentifier) async throws -> (StoredOrder, JSONValue) {
        guard let stored = try await wallet.orders.order(identifier),
            let json = try await wallet.orders.orderJSON(identifier, version: stored.archiveSHA256)
        else { throw ServiceRequestError.noRoute }
        return (stored, try JSONParser().parse(json).value)
    }

    /// The form's choices that ``patch(_:current:)`` reads, to carry to the confirmation.
    static func choices(_ fields: FormFields) -> [FormChoice] {
        fields.pairs.filter { name, _ in name == "status" || name.hasPrefix("fulfillment.") }.map {
            FormChoice(name: $0.0, value: $0.1)
        }
    }

    /// The merge patch the form asks for: `status` when another allowed value is chosen, and the
    /// whole `fulfillments` array (RFC 7396 replaces arrays) when a fulfillment's status changes.
    static func patch(_ fields: FormFields, current: JSONValue) -> JSONValue {
        guard case .object(let order) = current else { return .object(JSONObject()) }
        var patch = JSONObject()
        if let status = fields.value("status"), Order.Status(rawValue: status) != nil, order["status"] != .string(status) {
            patch["status"] = .string(status)
        }
        if case .array(var fulfillments)? = order["fulfillments"] {
            var changed = false
            for index in fulfillments.indices {
                guard case .object(var fulfillment) = fulfillments[index], let status = fields.value("fulfillment.\(index)"),
                    fulfillment["status"] != .string(status), Self.allows(status, for: fulfillment)
                else { continue }
                fulfillment["status"] = .string(status)
                fulfillments[index] = .object(fulfillment)
                changed = true
            }
            if changed { patch["fulfillments"] = .array(fulfillments) }
        }
        return .object(patch)
    }

    /// Whether `status` is one the fulfillment's type allows.
    private static func allows(_ status: String, for fulfillment: JSONObject) -> Bool {
        switch fulfillment["fulfillmentType"] {
        case .string("shipping")?: Order.ShippingFulfillment.Status(rawValue: status) != nil
        case .string("pickup")?: Order.PickupFulfillment.Status(rawValue: status) != nil
        default: false
        }
    }
}
