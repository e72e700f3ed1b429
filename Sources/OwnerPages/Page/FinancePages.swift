import Hummingbird
import ServiceCore
import WalletOrders

/// The data owner's pages under `/finance`: sign-in, the consent sheet and its account picker,
/// the transaction picker, Settings, and their one stylesheet and script. Every page answers
/// errors as a page (``PageErrorMiddleware``) and knows the signed-in owner
/// (``OwnerSessionMiddleware``).
package struct FinancePages: Sendable {
    package typealias Context = OrdersRequestContext

    let wallet: WalletStore

    package init(wallet: WalletStore) {
        self.wallet = wallet
    }

    package func add(to router: Router<Context>, table: RouteTable) {
        let assets = router.group("finance/static")
        table.add(.get, "pages.css", prefix: "/finance/static", to: assets) { _, _ in
            PageAssets.response(Stylesheet.text, type: "text/css; charset=utf-8")
        }
        table.add(.get, "pages.js", prefix: "/finance/static", to: assets) { _, _ in
            PageAssets.response(PagesScript.text, type: "text/javascript; charset=utf-8")
        }
        table.add(.get, "icon.svg", prefix: "/finance/static", to: assets) { _, _ in
            PageAssets.response(PageIcon.svg, type: "image/svg+xml")
        }
        let pages = router.group("finance").add(middleware: PageErrorMiddleware())
            .add(middleware: OwnerSessionMiddleware(wallet: wallet))
        SignInPages(wallet: wallet).add(to: pages, table: table)
        ConsentPages(wallet: wallet).add(to: pages, table: table)
        PickerPages(wallet: wallet).add(to: pages, table: table)
        SettingsPages(wallet: wallet).add(to: pages, table: table)
    }
}
