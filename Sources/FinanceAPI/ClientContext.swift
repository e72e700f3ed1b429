import Foundation
import Hummingbird
import ServiceCore
import WalletConsent
import WalletCore

/// The context of the financial-data API's routes: the client the access token belongs to and
/// when the token expires, never optional. ``AccessTokenAuthenticator`` resolves the token once,
/// before the routes, which are mounted with `group(context: ClientContext.self)`; a stream
/// resolves the token again on every poll (``HistoryRoutes``).
struct ClientContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client the request acts for.
    let client: ClientIdentifier
    /// When the access token that authenticated the request expires.
    let expiresAt: Date

    init(context: OrdersRequestContext) throws {
        guard let access = context.financeAccess else { throw ConsentError.invalidToken }
        coreContext = context.coreContext
        client = access.client
        expiresAt = access.expiresAt
    }
}
