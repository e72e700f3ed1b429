import WalletPrimitives

/// The identifying fields of an order, read best-effort so that a report can say *which* order
/// failed even when `order.json` is invalid. Each field is nil when absent or not a string.
public struct OrderSummary: Sendable, Hashable, Codable {
    public var orderTypeIdentifier: String?
    public var orderIdentifier: String?
    public var orderNumber: String?
    public var createdAt: String?
    public var updatedAt: String?
    public var status: String?
    public var merchantDisplayName: String?
    public var merchantIdentifier: String?

    public init() {}

    init(_ root: JSONValue) {
        guard case .object(let object) = root else { return }
        func text(_ value: JSONValue?) -> String? {
            if case .string(let string) = value { return string }
            return nil
        }
        orderTypeIdentifier = text(object["orderTypeIdentifier"])
        orderIdentifier = text(object["orderIdentifier"])
        orderNumber = text(object["orderNumber"])
        createdAt = text(object["createdAt"])
        updatedAt = text(object["updatedAt"])
        status = text(object["status"])
        if case .object(let merchant) = object["merchant"] {
            merchantDisplayName = text(merchant["displayName"])
            merchantIdentifier = text(merchant["merchantIdentifier"])
        }
    }
}
