import Foundation
import OrderPackage
import TestArchiveTable
import Testing

@testable import OrderRendering

/// The order page's own words in the languages of Apple's Wallet: every key in every language,
/// the reader's language chosen, and nothing left in English for a German, French, Spanish,
/// Japanese or Chinese reader.
@Suite("The order page's own words: six languages")
struct OrderPageTextTests {
    @Test("every language has exactly English's keys, none empty, each with English's %@ count", arguments: PageLanguage.allCases)
    func everyKey(_ language: PageLanguage) throws {
        let english = try #require(OrderPageText.tables[.english])
        let table = try #require(OrderPageText.tables[language])
        #expect(Set(table.keys) == Set(english.keys), "\(language): missing \(Set(english.keys).subtracting(table.keys))")
        for (key, text) in table {
            #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(language) \(key)")
            let holes = text.components(separatedBy: "%@").count
            #expect(holes == english[key]?.components(separatedBy: "%@").count, "\(language) \(key): \(text)")
        }
        #expect(english.count >= 70)
    }

    @Test(
        "a reader's languages choose the page's: the first with words, simplified Chinese only when simplified",
        arguments: [
            (["de-CH", "en"], PageLanguage.german), (["pt-BR", "fr_CA"], .french), (["zh-TW", "ja"], .japanese),
            (["zh-CN"], .simplifiedChinese), (["zh-Hans-HK"], .simplifiedChinese), (["zh-Hant"], .english), ([], .english),
            (["es-419"], .spanish), (["en_GB"], .english),
        ])
    func choice(_ languages: [String], _ expected: PageLanguage) {
        #expect(PageLanguage.choose(from: languages) == expected)
    }

    @Test(
        "the page's headings, labels and statuses in the reader's language, none left in English",
        arguments: [
            ("de", ["Bestellung 123-456-789", "Artikel", "Zahlung", "Gesamt", "Versanddienst", "Unterwegs", "Bezahlt"]),
            ("fr", ["Commande 123-456-789", "Articles", "Paiement", "Total", "Transporteur", "En route", "Payé"]),
            ("es", ["Pedido 123-456-789", "Artículos", "Pago", "Total", "Transportista", "En camino", "Pagado"]),
            ("ja", ["注文 123-456-789", "商品", "支払い", "合計", "配送業者", "配送中", "支払い済み"]),
            ("zh-Hans", ["订单 123-456-789", "商品", "付款", "总计", "承运商", "运输中", "已付款"]),
        ])
    func localizedPage(_ language: String, _ words: [String]) throws {
        let bytes = try TestOrderArchive.make()
        let page = try OrderRendererTests.render(bytes, languages: [language])
        for word in words { #expect(page.html.contains(word), "\(language): no \(word)") }
        // (Total is also French and Spanish.)
        for english in [">Items<", ">Payment<", ">Carrier<", "On the Way", ">Paid<", "Order 123"] {
            #expect(!page.html.contains(english), "\(language): \(english) left in English")
        }
    }

    @Test("a status text that says what the status says is shown once (no \"Delivered Delivered\")")
    func statusOnce() throws {
        let bytes = try TestOrderArchive.make { order in
            var fulfillments = order["fulfillments"] as? [[String: Any]] ?? []
            fulfillments[0]["status"] = "delivered"
            fulfillments[0]["statusDescription"] = "delivered "
            order["fulfillments"] = fulfillments
            order["statusDescription"] = "Your parcel is on its way"
        }
        let page = try OrderRendererTests.render(bytes)
        #expect(page.html.components(separatedBy: ">Delivered<").count == 2, "\(page.html)")
        #expect(!page.html.contains("status-text\">delivered"))
        #expect(page.html.contains("Your parcel is on its way"), "a text that says more stays")
    }
}
