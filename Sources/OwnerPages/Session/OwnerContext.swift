import Hummingbird
import ServiceCore
import WalletConsent

/// The context of a page that needs the signed-in owner: the session is a property, never
/// optional (hummingbird-auth's child contexts). The routes behind it are mounted with
/// `group(context: OwnerContext.self)`; a request without a current session never reaches them —
/// making this context throws ``OwnerSignInRequired``, which ``PageErrorMiddleware`` answers with
/// the way to sign in. A page that must look at its request first (the consent sheet checks the
/// client before anything) makes one itself, with the same error.
struct OwnerContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The request's own context: the client's address, TLS, the public origin.
    let base: OrdersRequestContext
    /// The signed-in owner.
    let session: OwnerSession

    init(context: OrdersRequestContext) throws {
        guard let session = context.ownerSession else { throw OwnerSignInRequired() }
        coreContext = context.coreContext
        base = context
        self.session = session
    }

    /// The request came over TLS (to this server, or to a trusted proxy that says so).
    var isSecure: Bool { base.isSecure }
}

/// A page that needs the owner was asked for without a current session.
struct OwnerSignInRequired: Error {}
