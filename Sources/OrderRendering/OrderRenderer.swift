import Foundation
import OrderPackage

/// Renders a verified order as Wallet shows it — merchant, status, provider, fulfillments,
/// line items, payment, returns, barcodes — as HTML that `orders preview`, the customer's order
/// page and the operator console all use.
///
/// Every string of order.json goes through the `order.strings` table chosen for the reader's
/// languages, then is escaped; amounts and times follow ``OrderFormatting``; only `https:` URLs
/// become links; images are the archive's own, inlined as `data:` URIs of the type their bytes
/// show (never one their name claims); QR and Code 128 barcodes are drawn as SVG.
///
/// ```swift
/// let report = OrderVerifier().verify(bytes)
/// if let order = report.order {
///     let archive = try ZipArchive(reading: bytes)
///     let page = OrderRenderer(languages: ["de-CH"]).render(order, archive: archive)
///     print(page.document())
/// }
/// ```
public struct OrderRenderer: Sendable {
    /// The reader's languages, most preferred first (BCP 47 tags or POSIX names).
    public let languages: [String]
    /// The locale amounts, numbers and dates are written in.
    public let locale: Locale

    /// - Parameters:
    ///   - languages: the reader's languages; the first also gives the locale unless `locale` does.
    ///   - locale: the locale for amounts and dates; by default the first language's, else `en_US`.
    public init(languages: [String] = [], locale: Locale? = nil) {
        self.languages = languages
        self.locale = locale ?? Locale(identifier: languages.first ?? "en_US")
    }

    /// The order's HTML (one `<article>`), its title and the localization chosen.
    public func render(_ order: Order, archive: ZipArchive) -> RenderedOrder {
        let strings = OrderLocalizations(archive: archive).table(preferring: languages)
        let builder = OrderViewBuilder(
            strings: strings, format: OrderFormatting(locale: locale),
            images: OrderImages(archive: archive, localization: strings.localization),
            words: OrderPageText(PageLanguage.choose(from: languages + [locale.identifier])))
        let view = builder.build(order)
        let html = OrderTemplates.library.render(view, withTemplate: "order") ?? ""
        return RenderedOrder(
            title: view.title, html: html, localization: strings.localization,
            language: strings.localization ?? languages.first ?? "en")
    }
}

/// An order rendered by ``OrderRenderer``.
public struct RenderedOrder: Sendable, Hashable {
    /// `Merchant – Order 123`, localized.
    public var title: String
    /// One `<article class="order">`, styled by ``OrderStylesheet``.
    public var html: String
    /// The `order.strings` localization shown, if the package has any.
    public var localization: String?
    /// The page's language (`lang`): the localization shown, else the reader's first language.
    public var language: String

    /// A complete HTML page holding only the order, with its style inline and a
    /// Content-Security-Policy that allows no script and no network: what `orders preview` writes.
    public func document() -> String {
        let model: [String: Any] = ["title": title, "language": language, "stylesheet": OrderStylesheet.text, "order": html]
        return OrderTemplates.library.render(model, withTemplate: "document") ?? ""
    }
}
