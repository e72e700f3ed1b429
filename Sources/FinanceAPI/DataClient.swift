import Foundation
import ServiceCore
import WalletConsent
import WalletCore

/// A client of the data API, as ``AccessTokenAuthenticator`` resolves a bearer access token. A
/// stream resolves the token again on every poll (``HistoryRoutes``).
struct DataClient: Caller {
    let client: ClientIdentifier
    /// When the access token that authenticated the request expires.
    let expiresAt: Date

    static func missing() -> any Error { ConsentError.invalidToken }
}

/// The context of the data API's routes.
typealias ClientContext = CallerContext<DataClient>
