import Foundation
import HTTPTypes
import Hummingbird
import OrderPackage
import OrderRendering
import OrdersWebProtocol
import ServiceCore
import WalletOrders
import WalletPrimitives

/// The customer's order page, `GET /orders/{type}/{id}?expires=…&signature=…` (an
/// ``WalletOrders/OrderPageLink``): the order as Wallet shows it, in the reader's language
/// (`Accept-Language`), with an Add to Apple Wallet button that downloads the stored archive
/// (`…/archive`, `application/vnd.apple.finance.order`). A wrong, tampered or expired link and an
/// unknown order all get the same 404 page, after the same work.
///
/// Orders are rendered once per archive and language list and kept by content
/// (``RenderedOrderCache``, keyed by the archive's digest): a version never changes, so a cached
/// rendering is never stale. The page around it — with this link's download URL — is put
/// together per request.
package struct CustomerOrderPages: Sendable {
    package typealias Context = OrdersRequestContext

    let webService: OrderWebService
    let archives: ArchiveCache
    let rendered: RenderedOrderCache

    static let prefix = "/orders"

    package init(webService: OrderWebService, archives: ArchiveCache, rendered: RenderedOrderCache) {
        self.webService = webService
        self.archives = archives
        self.rendered = rendered
    }

    package func add(to router: Router<Context>, table: RouteTable) {
        let assets = router.group("orders/static")
        table.add(.get, "order.css", prefix: "/orders/static", to: assets) { _, _ in
            StaticAsset.response(OrderStylesheet.text, type: "text/css; charset=utf-8", version: Self.assetVersion)
        }
        let orders = router.group("orders")
        table.add(.get, "{orderTypeIdentifier}/{orderIdentifier}", prefix: Self.prefix, to: orders, use: answeringErrors(page))
        table.add(
            .get, "{orderTypeIdentifier}/{orderIdentifier}/archive", prefix: Self.prefix, to: orders,
            use: answeringErrors(archive))
    }

    /// A customer is shown a page, never the API's JSON: an error the store or the core answers
    /// (orders unavailable or restricted, a damaged store) is the message page, with the status
    /// and headers of the one table (``HTTPStatusTable``).
    private func answeringErrors(
        _ handler: @escaping @Sendable (Request, Context) async throws -> Response
    ) -> @Sendable (Request, Context) async throws -> Response {
        { request, context in
            do {
                return try await handler(request, context)
            } catch let error as any WalletError {
                let status = HTTPStatusTable.status(of: error)
                if status.code >= 500 { context.logger.error("\(error.code): \(error.message)") }
                var headers = HTTPStatusTable.headers(of: error)
                headers[.wwwAuthenticate] = nil
                return Self.message(Self.unavailablePages[Self.language(request)], status: status, headers: headers)
            }
        }
    }

    /// The stylesheet's version, in its URL (`?v=`) and in every page's ETag.
    static let assetVersion = OrderStylesheet.version

    @Sendable func page(_ request: Request, context: Context) async throws -> Response {
        guard let (link, served) = try await served(request, context: context) else { return Self.notFound(request) }
        // At most PageLocale.maximumEntries tags: the header is a stranger's.
        let languages = PageLocale.languages(request.headers[.acceptLanguage])
        let languageKey = languages.joined(separator: ",")
        func tag(_ digest: String) -> EntityTag {
            Self.tag([digest, languageKey, String(link.expires), link.signature])
        }
        let servedTag = tag(served.archiveSHA256)
        if request.headers[values: .ifNoneMatch].contains(where: { servedTag.isMatched(byIfNoneMatch: $0) }) {
            return Response(status: .notModified, headers: Self.headers(tag: servedTag))
        }
        var digest = served.archiveSHA256
        let order: RenderedOrder
        if let cached = rendered[digest + "|" + languageKey] {
            order = cached
        } else {
            // The archive read may be a newer version's, saved in between: its rendering, its key.
            let (bytes, current) = try await archiveBytes(link, served: served)
            digest = current.archiveSHA256
            order = try OrderRenderer(languages: languages).render(storedArchive: Data(buffer: bytes))
            rendered.insert(order, digest: digest + "|" + languageKey)
        }
        let model: [String: Any] = [
            "language": order.language, "title": order.title, "assetVersion": Self.assetVersion, "order": order.html,
            "download": link.archivePath, "t": PageText(PageLanguage.choose(from: languages)),
        ]
        var headers = Self.headers(tag: tag(digest))
        headers[.contentType] = "text/html; charset=utf-8"
        let html = CustomerTemplates.library.render(model, withTemplate: "customerOrder") ?? ""
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// A page's entity tag: its archive, the reader's languages, the link (its download URL is on
    /// the page) and the stylesheet's version.
    static func tag(_ parts: [String]) -> EntityTag {
        EntityTag(opaque: String(SHA256Digest.hex(of: Data((parts + [assetVersion]).joined(separator: "\n").utf8)).prefix(40)))
    }

    /// The stored archive, byte for byte, for Safari (or any browser) to hand to Wallet.
    @Sendable func archive(_ request: Request, context: Context) async throws -> Response {
        guard let (link, served) = try await served(request, context: context) else { return Self.notFound(request) }
        let tag = EntityTag(opaque: served.archiveSHA256)
        var headers = Self.headers(tag: tag)
        if request.headers[values: .ifNoneMatch].contains(where: { tag.isMatched(byIfNoneMatch: $0) }) {
            return Response(status: .notModified, headers: headers)
        }
        let (bytes, current) = try await archiveBytes(link, served: served)
        headers[.eTag] = EntityTag(opaque: current.archiveSHA256).headerValue
        headers[.contentType] = orderArchiveMediaType
        headers[.contentDisposition] = "attachment; filename=\"order.order\""
        headers[.contentLength] = String(bytes.readableBytes)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: bytes))
    }

    /// The request's link and the version's facts it opens; nil when it opens nothing (the 404).
    private func served(_ request: Request, context: Context) async throws -> (OrderPageLink, ServedOrder)? {
        let link = Self.link(request, context: context)
        do {
            return (link, try await webService.orderPage(link, includingArchive: false))
        } catch let error as WebServiceError where error == .unauthorized {
            return nil
        }
    }

    /// The archive of `served` from the cache, or read again with it (then possibly a newer
    /// version's, which the caller checks).
    private func archiveBytes(_ link: OrderPageLink, served: ServedOrder) async throws -> (ByteBuffer, ServedOrder) {
        if let cached = archives[served.archiveSHA256] { return (cached, served) }
        let current = try await webService.orderPage(link)
        let bytes = ByteBuffer(bytes: current.archive ?? Data())
        archives.insert(bytes, digest: current.archiveSHA256)
        return (bytes, current)
    }

    /// The link the request carries; an unusable one is still a link (one that matches nothing),
    /// so that it costs what a wrong signature costs.
    static func link(_ request: Request, context: Context) -> OrderPageLink {
        let query = request.uri.queryParameters
        let type = (try? PathParameter.decoded("orderTypeIdentifier", in: context)) ?? ""
        let id = (try? PathParameter.decoded("orderIdentifier", in: context)) ?? ""
        let expires = query.get("expires").flatMap { Int64($0) } ?? 0
        let signature = query.get("signature").map { String($0.prefix(64)) } ?? ""
        return OrderPageLink(
            identifier: FullyQualifiedOrderIdentifier(orderTypeIdentifier: type, orderIdentifier: id), expires: expires,
            signature: signature)
    }

    /// The one answer for every link that leads nowhere (in the reader's language).
    static func notFound(_ request: Request) -> Response {
        message(notFoundPages[language(request)], status: .notFound)
    }

    /// The language of the pages' own words for this reader.
    static func language(_ request: Request) -> PageLanguage {
        PageLanguage.choose(from: PageLocale.languages(request.headers[.acceptLanguage]))
    }

    static let unavailablePages = MessagePages(title: "orderUnavailable", text: "orderUnavailableText")
    static let notFoundPages = MessagePages(title: "linkNotFound", text: "linkNotFoundText")

    /// A page that only says something, on the customer pages' layout: rendered once per language.
    struct MessagePages: Sendable {
        private let pages: [PageLanguage: String]

        init(title: String, text: String) {
            var pages: [PageLanguage: String] = [:]
            for language in PageLanguage.allCases {
                let words = PageText(language)
                pages[language] =
                    CustomerTemplates.library.render(
                        [
                            "language": language.rawValue, "title": words[title], "text": words[text],
                            "assetVersion": CustomerOrderPages.assetVersion,
                        ], withTemplate: "customerMessage") ?? ""
            }
            self.pages = pages
        }

        subscript(_ language: PageLanguage) -> String { pages[language] ?? "" }
    }

    /// A message page as a response: never stored by a cache.
    static func message(_ page: String, status: HTTPResponse.Status, headers extra: HTTPFields = [:]) -> Response {
        var headers = headers(tag: nil)
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }

    /// Security headers: nothing but this origin's stylesheet and the page's own `data:` images,
    /// no forms, no framing, no referrer (the URL is a credential); `private, no-cache`.
    static func headers(tag: EntityTag?) -> HTTPFields {
        var headers: HTTPFields = [
            .contentSecurityPolicy:
                "default-src 'none'; style-src 'self'; img-src data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
            .cacheControl: "private, no-cache",
            .vary: "Accept-Language",
        ]
        if let tag { headers[.eTag] = tag.headerValue }
        if let name = HTTPField.Name("Referrer-Policy") { headers[name] = "no-referrer" }
        if let name = HTTPField.Name("X-Frame-Options") { headers[name] = "DENY" }
        if let name = HTTPField.Name("X-Content-Type-Options") { headers[name] = "nosniff" }
        if let name = HTTPField.Name("Cross-Origin-Opener-Policy") { headers[name] = "same-origin" }
        return headers
    }
}
