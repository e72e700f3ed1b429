import HTTPTypes
import Hummingbird
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
        } catch let error as any WalletError {
            let status = HTTPStatusTable.status(of: error)
            if status.code >= 500 { context.logger.error("\(error.code): \(error.message)") }
            var headers = HTTPStatusTable.headers(of: error)
            headers[.wwwAuthenticate] = nil
            let heading =
                switch error.code {
                case "consent.unknownClient": "This Request Can’t Be Used"
                case "consent.forgedRequest": "This Form Has Expired"
                default: status.code >= 500 ? "Not Available Right Now" : "Something Is Wrong with This Request"
                }
            let signedIn = context.ownerSession?.formToken
            return PageResponse.render(
                "message",
                MessageModel(
                    frame: PageFrame(title: heading, session: signedIn), heading: heading,
                    text: error.message.capitalizedFirst + ".",
                    code: error.code),
                status: status, headers: headers)
        }
    }
}
