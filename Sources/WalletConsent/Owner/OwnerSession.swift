import Foundation

/// A signed-in session of the data owner, as the store keeps it: the SHA-256 of the cookie (the
/// cookie itself is a ``SecretToken`` only the browser holds), the token every form of the
/// session carries, and when it began and was last used.
///
/// Stored through the storage layer, so every instance of `orders serve` on one database knows
/// it.
public struct OwnerSession: Sendable, Hashable {
    public var digest: String
    /// Put in every form the session's pages show and required back (CSRF).
    public var formToken: String
    public var createdAt: Date
    public var lastSeenAt: Date

    public init(digest: String, formToken: String, createdAt: Date, lastSeenAt: Date) {
        self.digest = digest
        self.formToken = formToken
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
    }
}

/// How long a session lasts: it ends after ``idleTimeout`` without a request, and
/// ``absoluteLifetime`` after sign-in whatever happens.
public struct SessionPolicy: Sendable, Hashable {
    public var idleTimeout: TimeInterval
    public var absoluteLifetime: TimeInterval
    /// A request records its time only when the last one recorded is older than this, so that
    /// browsing is not a write per page.
    public var touchInterval: TimeInterval

    public init(
        idleTimeout: TimeInterval = 30 * 60, absoluteLifetime: TimeInterval = 12 * 3_600, touchInterval: TimeInterval = 60
    ) {
        self.idleTimeout = idleTimeout
        self.absoluteLifetime = absoluteLifetime
        self.touchInterval = min(touchInterval, idleTimeout / 2)
    }

    public func isExpired(_ session: OwnerSession, at time: Date) -> Bool {
        time >= session.lastSeenAt.addingTimeInterval(idleTimeout)
            || time >= session.createdAt.addingTimeInterval(absoluteLifetime)
    }

    /// Sessions last seen before this, or begun before ``absoluteLifetime`` ago, are over.
    public func expiryCutoffs(at time: Date) -> (lastSeenBefore: Date, createdBefore: Date) {
        (time.addingTimeInterval(-idleTimeout), time.addingTimeInterval(-absoluteLifetime))
    }
}
