import Hummingbird
import OrderStorage
import OrdersWebProtocol
import ServiceCore
import WalletOrders

/// The operator console under `/console`, for the signed-in owner (the financial-data pages'
/// session and CSRF machinery): stored orders with a search; an order's page with its rendered
/// view, every stored version, a diff between two, and its registered devices; the push outbox;
/// the merchant API's keys; an upload form that verifies an archive. docs/pages.md shows them.
package struct ConsolePages: Sendable {
    package typealias Context = OrdersRequestContext

    let wallet: WalletStore
    let limits: ServiceLimits
    /// The `webServiceURL` the console's changes give an order, as the merchant API's do.
    let webService: WebServiceURLPolicy

    /// Orders on one page of the list.
    static let pageSize = 50

    /// The console's page of an order.
    static func orderPath(_ identifier: FullyQualifiedOrderIdentifier) -> String {
        "/console/orders/\(PercentEncoding.encode(identifier.orderTypeIdentifier))/"
            + PercentEncoding.encode(identifier.orderIdentifier)
    }

    package init(wallet: WalletStore, limits: ServiceLimits, webService: WebServiceURLPolicy) {
        self.wallet = wallet
        self.limits = limits
        self.webService = webService
    }

    package func add(to router: Router<Context>, table: RouteTable) {
        let pages = router.group("console").add(middleware: PageErrorMiddleware())
            .add(middleware: OwnerSessionMiddleware(wallet: wallet))
        table.add(.get, "", prefix: "/console", to: pages) { _, _ in PageResponse.redirect(to: "/console/orders") }
        let owner = pages.group(context: OwnerContext.self)
        table.add(.get, "orders", prefix: "/console", to: owner, use: orders)
        table.add(.get, "orders/{orderTypeIdentifier}/{orderIdentifier}", prefix: "/console", to: owner, use: order)
        table.add(.get, "orders/{orderTypeIdentifier}/{orderIdentifier}/diff", prefix: "/console", to: owner, use: diff)
        table.add(.post, "orders/{orderTypeIdentifier}/{orderIdentifier}/change", prefix: "/console", to: owner, use: change)
        table.add(.get, "keys", prefix: "/console", to: owner, use: keys)
        table.add(.post, "keys/create", prefix: "/console", to: owner, use: createKey)
        table.add(.post, "keys/revoke", prefix: "/console", to: owner, use: revokeKey)
        table.add(.get, "upload", prefix: "/console", to: owner, use: uploadForm)
        table.add(.post, "upload", prefix: "/console", to: owner, use: upload)
        table.add(.get, "outbox", prefix: "/console", to: owner, use: outbox)
        table.add(.get, "tracking", prefix: "/console", to: owner, use: tracking)
    }
}
