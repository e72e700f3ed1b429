import Foundation
import ServiceCore
import WalletConsent
import WalletCore

/// A client of the data API, as ``AccessTokenAuthenticator`` resolves a bearer access token:
/// the token's client, the client's access and the restriction, read in one statement, which
/// every check of the request uses. A stream reads a new one on every poll (``HistoryRoutes``).
struct DataClient: Caller {
    let snapshot: AccessSnapshot

    var client: ClientIdentifier { snapshot.client }
    /// When the access token that authenticated the request expires.
    var expiresAt: Date { snapshot.expiresAt }

    static func missing() -> any Error { ConsentError.invalidToken }
}

/// The context of the data API's routes.
typealias ClientContext = CallerContext<DataClient>
