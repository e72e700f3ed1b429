import Foundation

/// The lifetimes and limits of the consent machinery, in one value (docs/finance-web.md lists
/// each with its reason).
public struct ConsentPolicy: Sendable, Hashable {
    /// An authorization or pick code is single-use and lives at most this long (≤ 60 s).
    public var codeLifetime: TimeInterval
    public var accessTokenLifetime: TimeInterval
    /// Rotated on every use.
    public var refreshTokenLifetime: TimeInterval
    public var sessions: SessionPolicy
    public var signIn: SignInThrottle
    /// The most transactions one pick can hand over.
    public var maximumPickedTransactions: Int
    /// bcrypt checks running at once; sign-ins beyond them wait, and beyond
    /// ``maximumWaitingSignIns`` are refused (a flood of sign-ins must not take every core).
    public var concurrentPasswordChecks: Int
    public var maximumWaitingSignIns: Int

    public init(
        codeLifetime: TimeInterval = 60, accessTokenLifetime: TimeInterval = 3_600,
        refreshTokenLifetime: TimeInterval = 30 * 86_400, sessions: SessionPolicy = SessionPolicy(),
        signIn: SignInThrottle = SignInThrottle(), maximumPickedTransactions: Int = 100, concurrentPasswordChecks: Int = 2,
        maximumWaitingSignIns: Int = 16
    ) {
        self.codeLifetime = min(60, max(1, codeLifetime))
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.sessions = sessions
        self.signIn = signIn
        self.maximumPickedTransactions = maximumPickedTransactions
        self.concurrentPasswordChecks = max(1, concurrentPasswordChecks)
        self.maximumWaitingSignIns = max(0, maximumWaitingSignIns)
    }
}
