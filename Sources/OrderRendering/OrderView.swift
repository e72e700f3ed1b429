/// What the order template shows, every text already localized and formatted: built by
/// ``OrderViewBuilder`` from an order, read by Mustache (whose `{{…}}` escapes every value; `empty(list)` tests a list).
struct OrderView {
    struct Link {
        var href: String
        var text: String
    }

    /// One labelled value in a card's details.
    struct Field {
        var label: String
        var value: String
        var link: Link?
        /// A code people read out or type (a tracking or return number): shown whole, never broken
        /// across lines while it fits the card's width.
        var isIdentifier = false
    }

    struct Merchant {
        var name: String
        var logo: String?
        var link: Link?
        var contact: [Field]
    }

    struct Provider {
        var name: String
        var link: Link?
        /// "Tracked by NAME" in the page's language, around the name (a link when there is one).
        var before: String
        var after: String
        var logoLight: String?
        var logoDark: String?
    }

    struct Barcode {
        /// The symbol as inline SVG from this module's encoders; nil for formats without one.
        var svg: String?
        var message: String
        var caption: String
    }

    struct LineItem {
        var title: String
        var subtitle: String?
        var image: String?
        var quantity: String
        var price: String?
    }

    struct Fulfillment {
        var id: String
        var kind: String
        var heading: String
        var status: String
        var statusLabel: String
        var statusDescription: String?
        var details: [Field]
        var address: [String]
        var links: [Link]
        var barcode: Barcode?
        var lineItems: [LineItem]
    }

    struct Payment {
        var summary: [Field]
        var total: String
        var statusLabel: String?
        var methods: String?
        var transactions: [Field]
    }

    struct Returns {
        var details: [Field]
        var links: [Link]
        var returns: [Fulfillment]
    }

    /// The page's headings that hold no value of the order, in its language.
    struct Words {
        var items: String
        var payment: String
        var total: String
        var transactions: String
        var returns: String

        init(_ text: OrderPageText) {
            items = text["items"]
            payment = text["payment"]
            total = text["total"]
            transactions = text["transactions"]
            returns = text["returns"]
        }
    }

    var title: String
    var merchant: Merchant
    /// "Order 123", in the page's language.
    var heading: String
    var status: String
    var statusLabel: String
    var statusDescription: String?
    var details: [Field]
    var provider: Provider?
    var barcode: Barcode?
    var fulfillments: [Fulfillment]
    var lineItems: [LineItem]
    var payment: Payment?
    var returns: Returns?
    var manage: Link?
    var words: Words
}
