import FinanceData
import Foundation
import Logging
import WalletConsent
import WalletCore
import WalletPrimitives

/// FinanceKit's consent on a server: the data owner signs in, clients registered by the owner or
/// operator ask through OAuth 2.0 with PKCE (`requestAuthorization()`), the owner decides on a
/// consent sheet and changes it in Settings, and a client that needs a few transactions once gets
/// exactly those through the transaction picker. Everything is in the store (``ConsentRepository``
/// and the access core), so several instances of `orders serve` on one database agree.
///
/// ```swift
/// let consent = wallet.consent
/// let created = try await consent.registerClient(
///     name: "Budget", redirectURIs: ["https://budget.example/callback"], isPublic: false)
/// // the owner signs in, sees the sheet, shares two accounts: the client gets a code and
/// let tokens = try await consent.exchange(
///     CodeRedemption(code: code, codeVerifier: verifier, redirectURI: "https://budget.example/callback",
///                    client: ClientCredentials(id: created.client.id.rawValue, secret: created.secret)))
/// let (client, _) = try await consent.authenticate(accessToken: tokens.accessToken)
/// let transactions = try await wallet.financeStore(for: client).transactions(query: TransactionQuery())
/// ```
///
/// The decision is the access core's: the same grants `orders access status` shows and
/// `WalletStore.grant(_:to:)` changes; revoking everything there also ends the client's tokens.
public final class FinanceConsent: Sendable {
    let repository: any ConsentRepository
    let access: any AccessRepository
    let finance: any FinanceDataRepository
    let control: AccessControl
    let policy: ConsentPolicy
    let clock: @Sendable () -> Date
    let logger: Logger
    let passwordChecks: PasswordCheckGate

    init(
        repository: any ConsentRepository, access: any AccessRepository, finance: any FinanceDataRepository,
        control: AccessControl, configuration: WalletConfiguration
    ) {
        self.repository = repository
        self.access = access
        self.finance = finance
        self.control = control
        policy = configuration.consent
        clock = configuration.clock
        logger = configuration.logger
        passwordChecks = PasswordCheckGate(
            concurrent: configuration.consent.concurrentPasswordChecks,
            maximumWaiting: configuration.consent.maximumWaitingSignIns)
    }

    // MARK: - The owner

    /// Sets the owner's password (10–72 bytes, no control characters), ending every session.
    public func setOwnerPassword(_ password: String, cost: Int = OwnerPassword.defaultCost) async throws {
        let hash = try await OwnerPassword.hash(password, cost: cost)
        try await repository.setOwnerPasswordHash(hash, at: clock())
    }

    /// Whether `orders owner set-password` has been run on this store.
    public func hasOwnerPassword() async throws -> Bool {
        try await repository.ownerPasswordHash() != nil
    }

    /// Signs the owner in from `address`: a new session, whose cookie value is returned once.
    ///
    /// - Throws: ``WalletConsent/ConsentError/signInThrottled(retryAfter:)`` past the failures
    ///   allowed from the address or in total (the password is then not checked at all), and
    ///   ``WalletConsent/ConsentError/wrongPassword`` otherwise — the same for a wrong password
    ///   and for a store with none set, after the same work.
    public func signIn(password: String, from address: String) async throws -> (cookie: SecretToken, session: OwnerSession) {
        let now = clock()
        let throttle = policy.signIn
        let failures = try await repository.signInFailures(from: address, since: now.addingTimeInterval(-throttle.window))
        guard failures.address < throttle.perAddress, failures.total < throttle.total else {
            logger.warning("sign-in refused: too many failures", metadata: ["address": .string(address)])
            throw ConsentError.signInThrottled(retryAfter: Int(throttle.window))
        }
        let hash = try await repository.ownerPasswordHash()
        let matches = try await passwordChecks.run { await OwnerPassword.verify(password, hash: hash) }
        guard matches else {
            try await repository.recordSignInFailure(from: address, at: now)
            logger.notice("sign-in failed", metadata: ["address": .string(address)])
            throw ConsentError.wrongPassword
        }
        try await repository.clearSignInFailures(from: address)
        let cookie = SecretToken.generate(.session)
        let session = OwnerSession(
            digest: cookie.digest, formToken: SecretToken.generate(.session).digest, createdAt: now, lastSeenAt: now)
        try await repository.insertSession(session)
        logger.info("owner signed in", metadata: ["address": .string(address)])
        return (cookie, session)
    }

    /// The session a cookie belongs to, if it is current; records the visit when the last one
    /// recorded is older than the policy's touch interval. Nil for anything else (malformed,
    /// unknown, idle or too old — an expired session is deleted).
    public func session(cookie: String) async throws -> OwnerSession? {
        guard SecretToken.hasForm(cookie, of: .session) else { return nil }
        let digest = SecretToken.digest(of: cookie)
        guard let session = try await repository.session(digest: digest) else { return nil }
        let now = clock()
        if policy.sessions.isExpired(session, at: now) {
            try await repository.deleteSession(digest: digest)
            return nil
        }
        if now.timeIntervalSince(session.lastSeenAt) >= policy.sessions.touchInterval {
            try await repository.touchSession(digest: digest, at: now)
        }
        return session
    }

    /// Ends the session of this cookie (nothing when there is none).
    public func signOut(cookie: String) async throws {
        guard SecretToken.hasForm(cookie, of: .session) else { return }
        try await repository.deleteSession(digest: SecretToken.digest(of: cookie))
    }

    // MARK: - What the owner sees

    /// Every account, as the owner sees them (the consent sheet's account picker, Settings), by
    /// name.
    public func ownerAccounts() async throws -> [Account] {
        try await control.checkUsable(.financialData, for: "ownerAccounts")
        let accounts = try await finance.accounts(AccountQuery(), visibleTo: try await ownerAccess())
        return accounts.sorted { ($0.displayName, $0.id.uuidString) < ($1.displayName, $1.id.uuidString) }
    }

    /// The owner's transactions for `query` (the transaction picker), every account visible.
    public func ownerTransactions(_ query: TransactionQuery) async throws -> [Transaction] {
        try await control.checkUsable(.financialData, for: "ownerTransactions")
        return try await finance.transactions(query, visibleTo: try await ownerAccess())
    }

    /// Access to every account from its beginning: what the owner sees.
    func ownerAccess() async throws -> ClientAccess {
        let accounts = try await finance.accountChoices()
        return ClientAccess(
            client: "owner", status: .authorized, accounts: accounts.map { AccountGrant(accountID: $0.id) })
    }

    // MARK: - Housekeeping

    /// Deletes expired codes (with what was picked), tokens, sessions and old failed sign-ins;
    /// `orders serve` runs it every few seconds. Returns how many records went.
    @discardableResult
    public func purgeExpired() async throws -> Int {
        let now = clock()
        return try await repository.purgeExpired(
            at: now, sessions: policy.sessions, failuresBefore: now.addingTimeInterval(-policy.signIn.window))
    }
}
