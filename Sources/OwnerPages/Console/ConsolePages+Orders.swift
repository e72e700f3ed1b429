import Foundation
import HTTPTypes
import Hummingbird
import OrderPackage
import OrderRendering
import OrderStorage
import OrdersWebProtocol
import ServiceCore
import WalletOrders
import WalletPrimitives

/// The stored orders: the list with its search, one order with its versions, and a diff.
extension ConsolePages {
    struct OrderRow {
        var href: String
        var identifier: String
        var type: String
        var status: String
        var merchant: String
        var updatedAt: String
    }

    struct ListModel: PageModel {
        var frame: PageFrame
        var search: String
        var type: String
        var status: String
        var statuses: [Choice]
        var orders: [OrderRow]
        var summary: String
        var previous: String?
        var next: String?
    }

    struct Choice {
        var value: String
        var label: String
        var selected: Bool
    }

    @Sendable func orders(_ request: Request, context: OwnerContext) async throws -> Response {
        let session = context.caller.session
        let query = try PageForm.query(request)
        let search = String((query.value("q") ?? "").prefix(OrderQuery.maximumTextLength))
        let type = String((query.value("type") ?? "").prefix(OrderQuery.maximumTextLength))
        let status = Order.Status(rawValue: query.value("status") ?? "")
        let page = max(0, min(Int(query.value("page") ?? "") ?? 0, 100_000))
        var filter = OrderQuery(
            orderTypeIdentifier: type.isEmpty ? nil : type, status: status?.rawValue, limit: Self.pageSize,
            offset: page * Self.pageSize, text: search.isEmpty ? nil : search)
        let stored = try await wallet.orders.orders(matching: filter)
        filter.offset = 0
        let total = try await wallet.orders.countOrders(matching: filter)
        func link(_ page: Int) -> String {
            var items = ["page=\(page)"]
            if !search.isEmpty { items.append("q=" + PercentEncoding.encode(search)) }
            if !type.isEmpty { items.append("type=" + PercentEncoding.encode(type)) }
            if let status { items.append("status=" + status.rawValue) }
            return "/console/orders?" + items.joined(separator: "&")
        }
        let rows = stored.map { order in
            OrderRow(
                href: Self.orderPath(order.identifier),
                identifier: order.identifier.orderIdentifier, type: order.identifier.orderTypeIdentifier, status: order.status,
                merchant: order.merchantDisplayName, updatedAt: order.updatedAt.text)
        }
        let first = page * Self.pageSize
        let model = ListModel(
            frame: PageFrame(title: "Orders", text: .console, session: session.formToken, console: true), search: search,
            type: type,
            status: status?.rawValue ?? "",
            statuses: [("", "Any"), ("open", "Open"), ("completed", "Completed"), ("cancelled", "Cancelled")].map {
                Choice(value: $0.0, label: $0.1, selected: $0.0 == (status?.rawValue ?? ""))
            },
            orders: rows,
            summary: total == 0 ? "No orders match." : "\(first + 1)–\(first + rows.count) of \(total)",
            previous: page > 0 ? link(page - 1) : nil, next: first + rows.count < total ? link(page + 1) : nil)
        return PageResponse.render("consoleOrders", model)
    }

    struct VersionRow {
        var updatedAt: String
        var addedAt: String
        var status: String
        var digest: String
        var size: String
        var current: Bool
        var uploadedBy: String
        /// The version before the current one: the diff form's default "from".
        var previous: Bool
    }

    struct DeviceRow {
        var device: String
        var token: String
        var registeredAt: String
        var updatedAt: String
    }

    struct OrderModel: PageModel {
        var frame: PageFrame
        var identifier: String
        var type: String
        var orderHTML: String
        var orderAssetVersion = OrderStylesheet.version
        var versions: [VersionRow]
        var versionsNote: String?
        /// The latest tracking events for the order's parcels, and what each did.
        var trackingEvents: [TrackingEventRow]
        var diffAction: String
        var devicesSummary: String
        var devices: [DeviceRow]
        var formToken: String
        /// Whether a signing identity holds the type's key: the change form is shown.
        var canChange: Bool
        var changeAction: String
        var statuses: [Choice]
        var fulfillments: [FulfillmentChoice]
        var notice: String?
    }

    /// Versions and devices an order's page lists at most (the newest).
    static let listedVersions = 200
    static let listedDevices = 50
    static let listedOrderEvents = 50

    @Sendable func order(_ request: Request, context: OwnerContext) async throws -> Response {
        let session = context.caller.session
        let identifier = try PathParameter.orderIdentifier(in: context)
        guard let archive = try await wallet.orders.archive(identifier) else {
            throw ServiceRequestError.noRoute
        }
        let stored = try OrderRenderer.decode(storedArchive: archive)
        let rendered = OrderRenderer(languages: PageLocale.languages(request.headers[.acceptLanguage]))
            .render(stored.order, archive: stored.archive)
        let history = try await wallet.orders.history(identifier)
        let keyNames = Dictionary(try await wallet.apiKeys().map { ($0.identifier, $0.name) }, uniquingKeysWith: { a, _ in a })
        let events = Dictionary(
            try await wallet.appliedTrackingEvents(of: identifier).map { ($0.archiveSHA256, $0) }, uniquingKeysWith: { a, _ in a }
        )
        let registered = try await wallet.registeredDevices(for: identifier, limit: Self.listedDevices)
        let canChange = try await wallet.hasSigningIdentity(for: identifier.orderTypeIdentifier)
        let choices = Self.changeChoices(stored.order)
        let signed = try PageForm.query(request).value("done") == "signed"
        let model = OrderModel(
            frame: PageFrame(
                title: "\(identifier.orderIdentifier) – Orders", text: .console, session: session.formToken, console: true),
            identifier: identifier.orderIdentifier, type: identifier.orderTypeIdentifier, orderHTML: rendered.html,
            versions: history.reversed().prefix(Self.listedVersions).enumerated().map { index, version in
                VersionRow(
                    updatedAt: version.updatedAt.text, addedAt: RFC3339Timestamp(version.addedAt).text, status: version.status,
                    digest: version.archiveSHA256, size: "\(version.archiveSize) bytes", current: version.replacedAt == nil,
                    uploadedBy: events[version.archiveSHA256].map(Self.trackingAuthor)
                        ?? Self.uploader(version.uploadedBy, names: keyNames), previous: index == 1)
            },
            versionsNote: history.count > Self.listedVersions
                ? "The newest \(Self.listedVersions) of \(history.count) versions." : nil,
            trackingEvents: try await wallet.trackingEvents(for: stored.order, limit: Self.listedOrderEvents).map(
                Self.trackingRow),
            diffAction: request.uri.path + "/diff",
            devicesSummary: Self.devicesSummary(registered),
            devices: registered.devices.map { device in
                DeviceRow(
                    device: device.deviceIdentifier, token: "…" + device.pushTokenSuffix,
                    registeredAt: RFC3339Timestamp(device.registeredAt).text, updatedAt: RFC3339Timestamp(device.updatedAt).text)
            },
            formToken: session.formToken, canChange: canChange, changeAction: request.uri.path + "/change",
            statuses: choices.statuses, fulfillments: choices.fulfillments,
            notice: signed ? "Signed and saved a new version; registered devices are told." : nil)
        return PageResponse.render("consoleOrder", model, imagesFromData: true)
    }

    /// Who stored a version: its API key's name, the identifier of a key no longer known, or
    /// another way (`orders add`, the library, the upload form).
    static func uploader(_ identifier: String?, names: [String: String]) -> String {
        guard let identifier else { return "not through the API" }
        return names[identifier].map { "\($0) (\(identifier))" } ?? "API key \(identifier)"
    }

    static func devicesSummary(_ registered: RegisteredDevices) -> String {
        guard let last = registered.lastRegisteredAt else { return "No device is registered for this order's updates." }
        let devices = registered.count == 1 ? "1 device" : "\(registered.count) devices"
        let listed = registered.count > registered.devices.count ? "; the \(registered.devices.count) newest are listed" : ""
        return "\(devices), the last registered \(RFC3339Timestamp(last).text)\(listed)."
    }

    struct DiffRow {
        var path: String
        var kind: String
        var before: String
        var after: String
    }

    struct DiffModel: PageModel {
        var frame: PageFrame
        var back: String
        var identifier: String
        var from: String
        var to: String
        var changes: [DiffRow]
    }

    /// Two stored versions' order.json, field by field (``OrderJSONDiff``).
    @Sendable func diff(_ request: Request, context: OwnerContext) async throws -> Response {
        let session = context.caller.session
        let identifier = try PathParameter.orderIdentifier(in: context)
        let query = try PageForm.query(request)
        let from = query.value("from") ?? ""
        let to = query.value("to") ?? ""
        let parser = JSONParser(maximumDepth: 64)
        guard let old = try await wallet.orders.orderJSON(identifier, version: from),
            let new = try await wallet.orders.orderJSON(identifier, version: to)
        else { throw ServiceRequestError.noRoute }
        let changes = OrderJSONDiff(from: try parser.parse(old).value, to: try parser.parse(new).value).changes
        let back = Self.orderPath(identifier)
        return PageResponse.render(
            "consoleDiff",
            DiffModel(
                frame: PageFrame(
                    title: "Changes – \(identifier.orderIdentifier)", text: .console, session: session.formToken, console: true),
                back: back,
                identifier: identifier.orderIdentifier, from: String(from.prefix(12)), to: String(to.prefix(12)),
                changes: changes.map {
                    DiffRow(path: $0.path, kind: $0.kind.rawValue, before: $0.before ?? "", after: $0.after ?? "")
                }))
    }
}
