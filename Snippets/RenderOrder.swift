// snippet.hide
// RenderOrder: a verified order as the HTML page Wallet's view of it would be.
import Foundation
// snippet.show
import OrderPackage
import OrderRendering

// snippet.hide
func render(bytes: Data, keep: (String, String) -> Void) throws {
    // snippet.show
    let report = OrderVerifier().verify(bytes)
    if let order = report.order, report.isValid {
        let archive = try ZipArchive(reading: bytes)
        let page = OrderRenderer(languages: ["de-CH"]).render(order, archive: archive)
        // page.html: one <article class="order">, styled by OrderStylesheet.text
        // page.document(): a complete page, as `orders preview` writes it
        // snippet.hide
        keep(page.html, page.document())
        // snippet.show
    }
    // snippet.end
    // snippet.hide
}
