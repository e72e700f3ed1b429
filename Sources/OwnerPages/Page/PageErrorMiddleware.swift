import HTTPTypes
import Hummingbird
import ServiceCore
import WalletConsent
import WalletPrimitives

/// Errors of the pages as pages: the message, its code, the status from the one table
/// (``HTTPStatusTable``). A request that names an unregistered client or another redirect URI
/// gets a page saying so — never a redirect.
struct PageErrorMiddleware: RouterMiddleware {
    typealias Context = OrdersRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch is OwnerSignInRequired {
            return OwnerGate.signIn(request, context: context)
        } catch let error as any WalletError {
            let status = HTTPStatusTable.status(of: error)
            if status.code >= 500 { context.logger.error("\(error.code): \(error.message)") }
            var headers = HTTPStatusTable.headers(of: error)
            headers[.wwwAuthenticate] = nil
            // The heading in the reader's language; the error's own sentence (`message`) is English.
            let text = request.uri.path.hasPrefix("/console") ? PageText.console : PageText(request)
            let heading =
                switch error.code {
                case "consent.unknownClient": text["errorUnknownClient"]
                case "consent.forgedRequest": text["errorForgedRequest"]
                default: text[status.code >= 500 ? "errorUnavailable" : "errorRequest"]
                }
            let signedIn = context.owner?.session.formToken
            return PageResponse.render(
                "message",
                MessageModel(
                    frame: PageFrame(title: heading, text: text, session: signedIn), heading: heading,
                    text: error.message.capitalizedFirst + ".",
                    code: error.code),
                status: status, headers: headers)
        }
    }
}
