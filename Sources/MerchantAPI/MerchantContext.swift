import Hummingbird
import OrdersWebProtocol
import ServiceCore
import WalletCore

/// The context of the merchant API's order routes: the API key the request authenticated with,
/// never optional. ``APIKeyAuthenticator`` finds it once, before the routes, and the routes are
/// mounted with `group(context: MerchantContext.self)`, so a route cannot be written without one.
struct MerchantContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The merchant's key: its client and its order types.
    let key: APIKey

    init(context: OrdersRequestContext) throws {
        guard let key = context.apiKey else { throw ServiceRequestError.unauthenticated }
        coreContext = context.coreContext
        self.key = key
    }
}
