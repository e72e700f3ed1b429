import Foundation
import OrderPackage
import TestArchiveTable
import Testing

@testable import OrderRendering

@Suite("OrderRenderer: what Wallet shows, localized, escaped, with only https links and sniffed images")
struct OrderRendererTests {
    /// A verified archive's order and its files.
    static func open(_ bytes: Data) throws -> (Order, ZipArchive) {
        let report = try TestOrderArchive.verifier().verify(bytes)
        let order = try #require(report.order, "\(report.errors)")
        return (order, try ZipArchive(reading: bytes))
    }

    static func render(_ bytes: Data, languages: [String] = ["en-US"]) throws -> RenderedOrder {
        let (order, archive) = try open(bytes)
        return OrderRenderer(languages: languages).render(order, archive: archive)
    }

    static let validArchives = TestArchiveTable.rows.filter(\.valid).map(\.file).filter { $0.hasPrefix("valid/") }

    @Test("every valid test archive renders: its merchant, number, status and total", arguments: validArchives)
    func everyValidArchive(_ file: String) throws {
        let bytes = try TestArchiveTable.data(file)
        let (order, _) = try Self.open(bytes)
        let page = try Self.render(bytes)
        #expect(page.html.hasPrefix("<article class=\"order\""))
        #expect(page.html.contains(order.orderNumber ?? order.orderIdentifier))
        if order.merchant.displayName != "MERCHANT_NAME" { #expect(page.html.contains(order.merchant.displayName)) }
        if let total = order.payment?.total {
            #expect(page.html.contains(OrderFormatting(locale: Locale(identifier: "en-US")).amount(total)))
        }
        #expect(page.document().contains("<title>\(page.title)</title>"))
    }

    @Test("the full order: fulfillments, items, payment, returns, provider, barcodes, contact")
    func fullOrder() throws {
        let page = try Self.render(TestArchiveTable.data("valid/full.order"))
        for text in [
            "Order 123-456-789", "Partly shipped", "Delivery", "Delivered", "DHL", "JD014600003828",
            "https://track.example.com/JD014600003828", "Pickup at Example Shop Zurich", "Ready for Pickup",
            "Espresso cups", "Set of 2", "Qty 1.5", "€24.50", "Subtotal", "€61.00", "Paid with Visa ••••1234",
            "Returns", "Return R-1", "On the Way", "https://shop.example.com/returns", "Tracked by", "Example Platform",
            "Leave at the door", "Ada Lovelace", "United Kingdom", "help@shop.example.com",
        ] {
            #expect(page.html.contains(HTMLText.escape(text)), "missing \(text)")
        }
        // The pickup window in the order's own offset: 10:00–12:00 at +01:00.
        #expect(page.html.contains("10:00") && page.html.contains("12:00"))
        #expect(page.html.contains("class=\"barcode qr\"") && page.html.contains("class=\"barcode linear\""))
        #expect(page.html.contains("src=\"data:image/png;base64,"))
        #expect(!page.html.contains("exampleshop://"))  // an app's launch URL is no link on the web
    }

    @Test("localized strings: the reader's language, then the package's first")
    func localized() throws {
        let bytes = try TestArchiveTable.data("valid/localized.order")
        let german = try Self.render(bytes, languages: ["de-CH"])
        #expect(german.localization == "de")
        #expect(german.html.contains("Beispiel-Laden"))
        #expect(!german.html.contains("MERCHANT_NAME"))
        let french = try Self.render(bytes, languages: ["fr"])
        #expect(french.localization == "de")  // no French: the first localization, never the key
        #expect(!french.html.contains("MERCHANT_NAME"))
    }

    @Test("text from the archive is text: markup in names shows escaped, never as elements")
    func escaping() throws {
        let bytes = try TestOrderArchive.make { order in
            var merchant = order["merchant"] as? [String: Any] ?? [:]
            merchant["displayName"] = "<script>alert(1)</script>\"'&"
            order["merchant"] = merchant
            order["statusDescription"] = "<img src=x onerror=alert(2)>"
        }
        let page = try Self.render(bytes)
        #expect(!page.html.contains("<script>") && !page.html.contains("<img src=x"))
        #expect(page.html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;"))
        #expect(page.document().contains("<title>&lt;script&gt;"))
    }

    @Test("only https URLs become links", arguments: ["javascript:alert(1)", "http://shop.example.com", "data:text/html,x"])
    func unsafeLinks(_ url: String) throws {
        let bytes = try Data(contentsOf: TestArchiveTable.directory.appendingPathComponent("sources/small/order.json"))
        var json = try #require(JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        json["orderManagementURL"] = url
        var merchant = json["merchant"] as? [String: Any] ?? [:]
        merchant["url"] = url
        json["merchant"] = merchant
        let validation = OrderValidator().validate(try JSONSerialization.data(withJSONObject: json))
        let order = try #require(validation.order)
        let archive = try ZipArchive(reading: RawZip(files: [("order.json", Data())]).bytes())
        let page = OrderRenderer().render(order, archive: archive)
        #expect(!page.html.contains(url))
        #expect(!page.html.contains("Manage Order"))
    }

    @Test("an image is shown only when its bytes are an image, whatever its name")
    func sniffedImages() throws {
        let png = try TestArchiveTable.data("sources/small/logo.png")
        #expect(ImageSniffer.contentType(of: png) == "image/png")
        #expect(ImageSniffer.contentType(of: Data("<html><script>".utf8)) == nil)
        #expect(ImageSniffer.contentType(of: Data([0xFF, 0xD8, 0xFF, 0xE0])) == "image/jpeg")
        #expect(ImageSniffer.contentType(of: Data("GIF89a".utf8)) == "image/gif")
        #expect(ImageSniffer.contentType(of: Data("RIFF\0\0\0\0WEBPVP8 ".utf8)) == "image/webp")
        let (order, _) = try Self.open(TestOrderArchive.make())
        let disguised = try ZipArchive(
            reading: RawZip(files: [("logo.png", Data("<svg onload=alert(1)>".utf8)), ("item.png", png)]).bytes())
        let page = OrderRenderer().render(order, archive: disguised)
        #expect(!page.html.contains("class=\"logo\""))
        #expect(!page.html.contains("svg onload"))
        #expect(page.html.contains("class=\"thumb\" src=\"data:image/png;base64,"))
    }

    @Test("a PDF417 or Aztec code shows its message as text; a QR code is an SVG labelled with its text")
    func barcodes() throws {
        for (format, drawn) in [("pdf417", false), ("aztec", false), ("qr", true), ("code128", true)] {
            let bytes = try TestOrderArchive.make { order in
                order["barcode"] = ["format": format, "message": "PICK-<7>", "altText": "Pickup code"]
            }
            let page = try Self.render(bytes)
            #expect(page.html.contains("<figcaption>Pickup code</figcaption>"))
            #expect(page.html.contains("<svg class=\"barcode") == drawn, "\(format)")
        }
    }

}
