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
    /// Checks for browsers that are not trusted devices: a flood of them waits here.
    let passwordChecks: PasswordCheckGate
    /// Checks for trusted devices, which never wait behind strangers'.
    let trustedPasswordChecks: PasswordCheckGate

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
        trustedPasswordChecks = PasswordCheckGate(concurrent: 1, maximumWaiting: 4)
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

    /// Signs the owner in from `address`: a new session, whose cookie value is returned once, and
    /// — when `device` is not a trusted-device cookie this store knows — a new one, to keep.
    ///
    /// The attempt is counted before the password is checked (``WalletConsent/SignInThrottle``):
    /// against the device when `device` is known, else against the address and its network. Past
    /// a limit it is refused without the check.
    ///
    /// - Throws: ``WalletConsent/ConsentError/signInThrottled(retryAfter:)`` past the attempts
    ///   allowed (the password is then not checked at all), or when too many checks already wait;
    ///   ``WalletConsent/ConsentError/wrongPassword`` otherwise — the same for a wrong password
    ///   and for a store with none set, after the same work.
    public func signIn(password: String, from address: String, device: String? = nil) async throws -> OwnerSignIn {
        let now = clock()
        let throttle = policy.signIn
        var trusted: String?
        if let device, SecretToken.hasForm(device, of: .trustedDevice) {
            let digest = SecretToken.digest(of: device)
            if try await repository.useTrustedDevice(
                digest: digest, unusedSince: now.addingTimeInterval(-throttle.deviceLifetime), at: now)
            {
                trusted = digest
            }
        }
        let attempt = SignInAttempt(address: address, device: trusted, at: now)
        let slowdown: TimeInterval
        switch try await repository.admitSignIn(attempt, throttle: throttle) {
        case .refused(let until):
            if let trusted {
                // A device past its limit is forgotten: its cookie is worth no more than none.
                try await repository.deleteTrustedDevice(digest: trusted)
            }
            logger.warning(
                "sign-in refused: too many attempts",
                metadata: ["address": .string(address), "network": .string(attempt.network), "trusted": "\(trusted != nil)"])
            throw ConsentError.signInThrottled(retryAfter: max(1, Int(until.timeIntervalSince(now).rounded(.up))))
        case .admitted(let recentUntrusted):
            slowdown = trusted == nil ? throttle.slowdown(afterRecentAttempts: recentUntrusted) : 0
        }
        let hash = try await repository.ownerPasswordHash()
        let gate = trusted == nil ? passwordChecks : trustedPasswordChecks
        let matches = try await gate.run {
            if slowdown > 0 { try? await Task.sleep(for: .milliseconds(Int(slowdown * 1000))) }
            return await OwnerPassword.verify(password, hash: hash)
        }
        guard matches else {
            logger.notice("sign-in failed", metadata: ["address": .string(address), "trusted": "\(trusted != nil)"])
            throw ConsentError.wrongPassword
        }
        try await repository.clearSignInAttempts(address: address, device: trusted)
        var issued: SecretToken?
        if trusted == nil {
            let token = SecretToken.generate(.trustedDevice)
            try await repository.insertTrustedDevice(digest: token.digest, at: now)
            issued = token
        }
        let cookie = SecretToken.generate(.session)
        let session = OwnerSession(
            digest: cookie.digest, formToken: SecretToken.generate(.session).digest, createdAt: now, lastSeenAt: now)
        try await repository.insertSession(session)
        logger.info("owner signed in", metadata: ["address": .string(address), "trusted": "\(trusted != nil)"])
        return OwnerSignIn(cookie: cookie, session: session, device: issued)
    }

    /// Forgets every sign-in attempt (`orders owner unlock`): every address, network and device
    /// may try again at once. Returns how many attempts were counted.
    @discardableResult
    public func unlockSignIn() async throws -> Int {
        let cleared = try await repository.clearAllSignInAttempts()
        logger.notice("sign-in unlocked", metadata: ["attempts": "\(cleared)"])
        return cleared
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
        return try await ownerAccountsChecked()
    }

    func ownerAccountsChecked() async throws -> [Account] {
        let accounts = try await finance.accounts(AccountQuery(), visibleTo: try await ownerAccess())
        return accounts.sorted { ($0.displayName, $0.id.uuidString) < ($1.displayName, $1.id.uuidString) }
    }

    /// The owner's transactions for `query` (the transaction picker), every account visible.
    public func ownerTransactions(_ query: TransactionQuery) async throws -> [Transaction] {
        try await control.checkUsable(.financialData, for: "ownerTransactions")
        return try await ownerTransactionsChecked(query)
    }

    func ownerTransactionsChecked(_ query: TransactionQuery) async throws -> [Transaction] {
        try await finance.transactions(query, visibleTo: try await ownerAccess())
    }

    /// Access to every account from its beginning: what the owner sees.
    func ownerAccess() async throws -> ClientAccess {
        let accounts = try await finance.accountChoices()
        return ClientAccess(
            client: "owner", status: .authorized, accounts: accounts.map { AccountGrant(accountID: $0.id) })
    }

    // MARK: - Housekeeping

    /// Deletes expired codes (with what was picked), tokens, sessions, old sign-in attempts and
    /// long-unused trusted devices;
    /// `orders serve` runs it every few seconds. Returns how many records went.
    @discardableResult
    public func purgeExpired() async throws -> Int {
        try await repository.purgeExpired(at: clock(), policy: policy)
    }
}

/// A successful sign-in: the session's cookie (shown once), the session, and a new
/// trusted-device cookie when the browser did not present a known one.
public struct OwnerSignIn: Sendable {
    public var cookie: SecretToken
    public var session: OwnerSession
    /// Keep it in the browser (a year): its sign-ins count against it alone
    /// (``WalletConsent/SignInThrottle``).
    public var device: SecretToken?
}
