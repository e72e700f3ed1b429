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
        /// The merge patch the confirmation signs, as JSON text.
        var patch: String
        /// The version the preview was made from: a confirmation for another is shown again.
        var basis: String
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
    /// change, `step=sign` signs and saves that patch — if the order is still the version
    /// previewed; otherwise the preview is shown again from the current version.
    @Sendable func change(_ request: Request, context: OwnerContext) async throws -> Response {
        let session = context.caller.session
        let fields = try await PageForm.read(request)
        try PageForm.checkToken(fields, expected: session.formToken)
        let identifier = try PathParameter.orderIdentifier(in: context)
        guard let stored = try await wallet.orders.order(identifier),
            let currentJSON = try await wallet.orders.orderJSON(identifier, version: stored.archiveSHA256)
        else { throw ServiceRequestError.noRoute }
        let current = try JSONParser().parse(currentJSON).value
        let patch: JSONValue
        if fields.value("step") == "sign", let text = fields.value("patch"), fields.value("basis") == stored.archiveSHA256 {
            _ = try await wallet.authorOrder(identifier, content: .mergePatch(Data(text.utf8)))
            return PageResponse.redirect(to: Self.orderPath(identifier) + "?done=signed")
        } else if fields.value("step") == "sign", let text = fields.value("patch") {
            patch = try JSONParser().parse(Data(text.utf8)).value
        } else {
            patch = Self.patch(fields, current: current)
        }
        let composed = try AuthoredOrderContent(
            JSONMergePatch.apply(patch, to: current), orderTypeIdentifier: identifier.orderTypeIdentifier,
            orderIdentifier: identifier.orderIdentifier, stored: (current, stored.updatedAt), now: wallet.configuration.clock(),
            serviceURL: nil)
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
                patch: patch.serialized, basis: stored.archiveSHA256))
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
