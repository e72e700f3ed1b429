import Foundation
import OrderPackage
import OrderRendering
import WalletCore

package extension OrderRenderer {
    /// A stored archive rendered: verified when it was saved, so only opened and its order.json
    /// decoded (the customer's page and the console's show it this way).
    func render(storedArchive archive: Data) throws -> RenderedOrder {
        let stored = try Self.decode(storedArchive: archive)
        return render(stored.order, archive: stored.archive)
    }

    /// A stored archive's entries and its decoded order.json, for a page that renders the order
    /// and reads it too.
    static func decode(storedArchive archive: Data) throws -> (order: Order, archive: ZipArchive) {
        let zip = try ZipArchive(reading: archive)
        guard let json = zip["order.json"], let order = OrderValidator().validate(json).order else {
            throw StorageError(reason: "a stored archive has no readable order.json")
        }
        return (order, zip)
    }
}
