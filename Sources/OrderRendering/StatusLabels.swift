import OrderPackage

/// The words the page uses for the spec's status values (English, as Wallet's own labels are
/// not the order's to localize; the merchant's `statusDescription` is shown beside them).
enum StatusLabels {
    static func order(_ status: Order.Status) -> String {
        switch status {
        case .open: "Open"
        case .completed: "Completed"
        case .cancelled: "Cancelled"
        }
    }

    static func shipping(_ status: Order.ShippingFulfillment.Status) -> String {
        switch status {
        case .open: "Order Placed"
        case .processing: "Processing"
        case .onTheWay: "On the Way"
        case .outForDelivery: "Out for Delivery"
        case .delivered: "Delivered"
        case .shipped: "Shipped"
        case .issue: "Issue"
        case .cancelled: "Cancelled"
        }
    }

    static func pickup(_ status: Order.PickupFulfillment.Status) -> String {
        switch status {
        case .open: "Order Placed"
        case .processing: "Processing"
        case .readyForPickup: "Ready for Pickup"
        case .pickedUp: "Picked Up"
        case .issue: "Issue"
        case .cancelled: "Cancelled"
        }
    }

    static func returned(_ status: Order.Return.Status) -> String {
        switch status {
        case .open: "Return Started"
        case .onTheWay: "On the Way"
        case .processing: "Processing"
        case .issue: "Issue"
        case .completed: "Completed"
        case .cancelled: "Cancelled"
        }
    }

    static func payment(_ status: Order.Payment.Status) -> String {
        switch status {
        case .pending: "Pending"
        case .authorized: "Authorized"
        case .paid: "Paid"
        case .refunded: "Refunded"
        case .declined: "Declined"
        case .voided: "Voided"
        }
    }

    static func barcode(_ format: Order.Barcode.Format) -> String {
        switch format {
        case .qr: "QR code"
        case .pdf417: "PDF417 code"
        case .aztec: "Aztec code"
        case .code128: "Code 128 barcode"
        }
    }
}
