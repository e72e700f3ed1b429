import Foundation
import Synchronization

/// Chains a ``TrustStore`` has already verified, by leaf certificate, so that the archives one
/// merchant signs with the same certificate do not check the same two certificate signatures
/// again (two of a verification's three RSA operations, and `X509_verify_cert`'s set-up).
///
/// A remembered chain stands in for `X509_verify_cert` only when the answer cannot differ:
/// - the leaf is the same object (certificates come from ``X509CertificateCache``, one object per
///   DER encoding; an entry holds its leaf, so the object cannot be freed and its address reused);
/// - every intermediate of the chain is among this verification's candidates, the same OpenSSL
///   object (the chain holds a reference, so its address cannot be reused): an archive that does
///   not embed an intermediate the store does not bundle still fails;
/// - every certificate of the chain is within its validity at the instant (OpenSSL checks each
///   one's time, the root's included); otherwise the caller runs the full check, which also
///   reports the expiry.
/// The signatures, the issuer links, the extensions OpenSSL checks for `X509_PURPOSE_ANY` and
/// the root's presence in the store do not depend on the instant, and this cache belongs to one
/// store. Bounded: when full it starts over.
final class VerifiedChainCache: Sendable {
    /// A verified chain, leaf first, with the subjects reports print.
    struct Chain: Sendable {
        let certificates: [X509Certificate]
        let subjects: [String]
    }

    private let entries = Mutex<[ObjectIdentifier: Chain]>([:])
    let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// The remembered chain of `leaf`, if it still holds with these candidates at `time` (nil:
    /// validity not checked).
    func chain(of leaf: X509Certificate, candidates: [X509Certificate], at time: Date?) -> Chain? {
        guard let chain = entries.withLock({ $0[ObjectIdentifier(leaf)] }), chain.certificates.first === leaf
        else { return nil }
        let intermediates = chain.certificates.dropFirst().dropLast()
        guard intermediates.allSatisfy({ link in candidates.contains { $0.pointer == link.pointer } }) else { return nil }
        if let time, !chain.certificates.allSatisfy({ $0.isWithinValidity(for: time) }) { return nil }
        return chain
    }

    /// Remembers a chain `X509_verify_cert` verified for `leaf` (its first element).
    @discardableResult
    func remember(_ certificates: [X509Certificate], of leaf: X509Certificate) -> Chain {
        // OpenSSL hands back its own references; keep the caller's leaf object as the first link.
        let links = [leaf] + certificates.dropFirst()
        let chain = Chain(certificates: links, subjects: links.map(\.subjectDescription))
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[ObjectIdentifier(leaf)] = chain
        }
        return chain
    }

    var count: Int {
        entries.withLock { $0.count }
    }

    /// Forgets every chain (FuzzSignature compares each verdict with one reached without them).
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
