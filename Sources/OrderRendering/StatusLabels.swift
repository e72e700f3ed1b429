import Foundation
import OrderPackage

/// The words the page uses for the spec's status values, in the page's language; the merchant's
/// `statusDescription` is shown beside them unless it says the same.
struct StatusLabels {
    let text: OrderPageText

    func order(_ status: Order.Status) -> String { text["status.order.\(status.rawValue)"] }

    func shipping(_ status: Order.ShippingFulfillment.Status) -> String { text["status.fulfillment.\(status.rawValue)"] }

    func pickup(_ status: Order.PickupFulfillment.Status) -> String { text["status.fulfillment.\(status.rawValue)"] }

    /// A return's own words where it has them (`open`: Return Started), else a fulfillment's.
    func returned(_ status: Order.Return.Status) -> String {
        let own = "status.return.\(status.rawValue)"
        return OrderPageText.keys.contains(own) ? text[own] : text["status.fulfillment.\(status.rawValue)"]
    }

    func payment(_ status: Order.Payment.Status) -> String { text["status.payment.\(status.rawValue)"] }

    func transaction(_ status: Order.PaymentTransaction.Status) -> String { text["status.transaction.\(status.rawValue)"] }

    func barcode(_ format: Order.Barcode.Format) -> String { text["barcode.\(format.rawValue)"] }

    /// The merchant's status text, unless it only repeats `label` ("Delivered" beside Delivered).
    static func description(_ description: String?, besides label: String) -> String? {
        guard let description else { return nil }
        let same =
            description.trimmingCharacters(in: .whitespacesAndNewlines).compare(
                label, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame
        return same ? nil : description
    }
}
