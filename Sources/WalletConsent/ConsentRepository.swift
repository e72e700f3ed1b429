import Foundation
import WalletCore

/// Where the consent machinery keeps its state: the owner's password hash and sessions, failed
/// sign-ins, registered clients, codes and tokens — all in the store, so every instance of
/// `orders serve` on one database shares them. Secrets are kept as SHA-256 digests only.
///
/// Each write that must hold against a concurrent one is one unit of work: redeeming a code,
/// rotating a refresh token, revoking a client with its tokens and codes.
public protocol ConsentRepository: Sendable {
    // MARK: Owner

    /// The owner's bcrypt hash; nil until `orders owner set-password`.
    func ownerPasswordHash() async throws(StorageError) -> String?
    /// Replaces the hash, ends every session, forgets every trusted device and sign-in attempt,
    /// in one unit.
    func setOwnerPasswordHash(_ hash: String, at time: Date) async throws(StorageError)

    func insertSession(_ session: OwnerSession) async throws(StorageError)
    func session(digest: String) async throws(StorageError) -> OwnerSession?
    func touchSession(digest: String, at time: Date) async throws(StorageError)
    func deleteSession(digest: String) async throws(StorageError)

    /// Counts `attempt` if it is within `throttle`'s limits for its device (when it has one) or
    /// its address and network (otherwise), counting the attempts made since `attempt.at` minus
    /// the window. Decided and recorded in one unit of work that concurrent admissions wait for:
    /// attempts made at once cannot pass a limit together.
    func admitSignIn(_ attempt: SignInAttempt, throttle: SignInThrottle) async throws(StorageError) -> SignInAdmission
    /// After a successful sign-in: its address (and device, when it had one) start afresh.
    func clearSignInAttempts(address: String, device: String?) async throws(StorageError)
    /// Every attempt forgotten (`orders owner unlock`); how many there were.
    func clearAllSignInAttempts() async throws(StorageError) -> Int

    /// Remembers a browser that signed in (the digest of its trusted-device cookie).
    func insertTrustedDevice(digest: String, at time: Date) async throws(StorageError)
    /// Whether the device is known and was used after `time`; marks it used at `now`.
    func useTrustedDevice(digest: String, unusedSince time: Date, at now: Date) async throws(StorageError) -> Bool
    func deleteTrustedDevice(digest: String) async throws(StorageError)

    // MARK: Clients

    /// Stores a new client; false (and nothing written) when the id is taken.
    func insertClient(_ client: RegisteredClient, secretDigest: String?) async throws(StorageError) -> Bool
    /// The client and its secret's digest (nil for a public client), revoked or not.
    func client(_ id: ClientIdentifier) async throws(StorageError) -> (client: RegisteredClient, secretDigest: String?)?
    /// What authenticating `id` needs, read with the same work whether a client has the id or
    /// not (one statement, one row): whether it exists and is revoked, and its secret's digest.
    func clientCredential(_ id: String) async throws(StorageError) -> ClientCredentialRecord
    /// Every client, oldest first.
    func registeredClients() async throws(StorageError) -> [RegisteredClient]
    /// Marks the client revoked and deletes its codes and tokens, in one unit; false when there is
    /// no such client or it already was revoked.
    func revokeClient(_ id: ClientIdentifier, at time: Date) async throws(StorageError) -> Bool

    // MARK: Codes

    func insertCode(_ code: IssuedCode) async throws(StorageError)
    /// Marks the code of this purpose used and drops its selection, in one unit, returning it as it
    /// was; nil when there is none (unknown, or already purged).
    func redeemCode(digest: String, purpose: IssuedCode.Purpose, at time: Date) async throws(StorageError) -> RedeemedCode?

    // MARK: Tokens

    func insertTokens(_ tokens: [IssuedToken]) async throws(StorageError)
    /// The client of an unexpired access token, and when the token expires.
    func accessToken(digest: String, at time: Date) async throws(StorageError) -> (client: ClientIdentifier, expiresAt: Date)?
    /// The client of an unexpired access token, when the token expires, the client's access and
    /// financial data's restriction: one statement, one snapshot (``WalletCore/AccessSnapshot``).
    func accessSnapshot(digest: String, at time: Date) async throws(StorageError) -> AccessSnapshot?
    /// `client` presents a refresh token: a valid one of its own is marked used and
    /// `replacements` are stored in its family; one used before, or another client's, revokes its
    /// family. One unit.
    func rotateRefreshToken(
        digest: String, client: ClientIdentifier, replacements: [IssuedToken], at time: Date
    ) async throws(StorageError) -> RefreshOutcome
    /// Deletes every token of the family.
    func revokeTokens(family: String) async throws(StorageError)
    /// RFC 7009: `client` revokes one of its own tokens — an access token alone, a refresh token
    /// with its whole family (every token of the same grant). False, and nothing changed, for a
    /// token that does not exist or is another client's.
    func revokeToken(digest: String, client: ClientIdentifier) async throws(StorageError) -> Bool

    // MARK: Housekeeping

    /// Deletes what `policy` says has lived its time at `time` — expired codes (and their
    /// selections), expired tokens, sessions, sign-in attempts older than the throttle's window,
    /// trusted devices unused for their lifetime; returns how many rows went.
    func purgeExpired(at time: Date, policy: ConsentPolicy) async throws(StorageError) -> Int
}
