import OrderPackage
import OrderStorage

/// `orders show --json`: the current version, every version oldest first, and the decoded
/// order.json (null if it no longer decodes).
public struct WireOrderDetail: Codable, Sendable {
    public var stored: WireStoredOrder
    public var versions: [WireStoredOrder]
    @Nullable public var order: Order?

    public init(current: StoredOrder, versions: [StoredOrder], order: Order?) {
        stored = WireStoredOrder(current)
        self.versions = versions.map(WireStoredOrder.init)
        self.order = order
    }
}
