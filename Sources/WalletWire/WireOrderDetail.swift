import OrderPackage
import OrderStorage

/// `orders show --json`: the current version, every version oldest first, and the decoded
/// order.json (null if it no longer decodes).
public struct WireOrderDetail: Codable, Sendable {
    public var stored: WireStoredOrder
    public var versions: [WireStoredOrder]
    public var order: Order?

    public init(current: StoredOrder, versions: [StoredOrder], order: Order?) {
        stored = WireStoredOrder(current)
        self.versions = versions.map(WireStoredOrder.init)
        self.order = order
    }

    private enum CodingKeys: String, CodingKey {
        case stored, versions, order
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stored, forKey: .stored)
        try container.encode(versions, forKey: .versions)
        try container.encode(order, forKey: .order)
    }
}
