import Hummingbird

/// A caller an audience's authenticator resolves and puts in ``OrdersRequestContext/caller``.
package protocol Caller: Sendable {
    /// What a route needing this caller answers when the request has none: the audience's `401`,
    /// or the way to sign in.
    static func missing() -> any Error
}

/// The context of the routes behind an authenticator, mounted with
/// `group(context: CallerContext<SomeCaller>.self)`: ``caller`` is the one the authenticator
/// resolved, never optional, so a handler that needs it cannot be written without it
/// (hummingbird-auth's child contexts). Making the context is the one check: without such a
/// caller it throws `C.missing()`.
package struct CallerContext<C: Caller>: ChildRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let caller: C
    /// The request's own context: the client's address, TLS, the public origin.
    package let base: OrdersRequestContext

    package init(context: OrdersRequestContext) throws {
        guard let caller = context.caller as? C else { throw C.missing() }
        coreContext = context.coreContext
        self.caller = caller
        base = context
    }

    /// The request came over TLS (to this server, or to a trusted proxy that says so).
    package var isSecure: Bool { base.isSecure }
}
