import OrdersWebProtocol
import ServiceCore
import WalletCore

/// A merchant, as ``APIKeyAuthenticator`` resolves a bearer API key: its client and order types.
struct Merchant: Caller {
    let key: APIKey

    static func missing() -> any Error { ServiceRequestError.unauthenticated }
}

/// The context of the merchant API's order routes.
typealias MerchantContext = CallerContext<Merchant>
