import Hummingbird
import ServiceCore
import WalletConsent

/// The signed-in owner, as ``OwnerSessionMiddleware`` resolves a session cookie.
struct Owner: Caller {
    let session: OwnerSession

    /// The way to sign in (``PageErrorMiddleware`` answers it with the sign-in page).
    static func missing() -> any Error { OwnerSignInRequired() }
}

/// The context of a page that needs the signed-in owner. A page that must look at its request
/// first (the consent sheet checks the client before anything) makes one itself, with the same
/// error.
typealias OwnerContext = CallerContext<Owner>

/// A page that needs the owner was asked for without a current session.
struct OwnerSignInRequired: Error {}

extension OrdersRequestContext {
    /// The signed-in owner, on the pages that serve everyone (sign-in, the error page).
    var owner: Owner? { caller as? Owner }
}
