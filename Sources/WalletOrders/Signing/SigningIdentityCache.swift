import Foundation
import OrderPackage
import OrderStorage
import Synchronization

/// Signers made from stored identities, so that a key is read (a file parsed, a token logged
/// into) once per identity and not per signature. An entry is used only while the stored row
/// is the one it was made from: replacing or removing an identity takes effect at the next
/// signature, in every process.
///
/// A failed load is remembered, not kept: for a short backoff (1 s after the first failure,
/// doubling to ``longestBackoff``) requests get its error without another attempt — a token is
/// not asked to log in with a wrong PIN on every request, which HSMs count toward locking it —
/// and then the next request loads again, so that fixing a file's mode, a token folder's owner or
/// a variable works without a restart.
final class SigningIdentityCache: Sendable {
    private let entries = Mutex<[String: (row: StoredSigningIdentity, identity: SigningIdentity)]>([:])
    private let failures = Mutex<[String: Failure]>([:])
    /// Staged identities this process loaded, by revision: checked once, reported thereafter.
    private let staged = Mutex<[String: SigningIdentity]>([:])

    func keepStaged(_ identity: SigningIdentity, for row: StoredSigningIdentity) {
        staged.withLock { $0[row.revision] = identity }
    }

    func staged(_ row: StoredSigningIdentity) -> SigningIdentity? {
        staged.withLock { $0[row.revision] }
    }

    struct Failure {
        var row: StoredSigningIdentity
        var error: any Error
        var attempts: Int
        var retryAt: Date
    }

    static let longestBackoff: TimeInterval = 30

    /// The error of the last failed load of `row` while its backoff lasts at `now`.
    func failure(for row: StoredSigningIdentity, at now: Date) -> (any Error)? {
        failures.withLock { failures in
            guard let failure = failures[row.orderTypeIdentifier], failure.row == row, now < failure.retryAt else { return nil }
            return failure.error
        }
    }

    func failed(_ row: StoredSigningIdentity, with error: any Error, at now: Date) {
        failures.withLock { failures in
            let attempts = failures[row.orderTypeIdentifier].map { $0.row == row ? $0.attempts + 1 : 1 } ?? 1
            let backoff = min(Self.longestBackoff, pow(2, Double(attempts - 1)))
            failures[row.orderTypeIdentifier] = Failure(
                row: row, error: error, attempts: attempts, retryAt: now.addingTimeInterval(backoff))
        }
    }

    func identity(for row: StoredSigningIdentity) -> SigningIdentity? {
        entries.withLock { entries in
            guard let entry = entries[row.orderTypeIdentifier], entry.row == row else { return nil }
            return entry.identity
        }
    }

    func keep(_ identity: SigningIdentity, for row: StoredSigningIdentity) {
        entries.withLock { $0[row.orderTypeIdentifier] = (row, identity) }
        failures.withLock { $0[row.orderTypeIdentifier] = nil }
    }

    func forget(_ orderTypeIdentifier: String) {
        entries.withLock { $0[orderTypeIdentifier] = nil }
        failures.withLock { $0[orderTypeIdentifier] = nil }
    }
}
