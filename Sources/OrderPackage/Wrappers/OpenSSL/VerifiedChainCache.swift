import Foundation
import Synchronization

/// Candidate chains a ``TrustStore`` has already built, by leaf certificate, so that the archives
/// one merchant signs with the same certificate do not check the same certificate signatures
/// again (two of a verification's three RSA operations, and `X509_verify_cert`'s set-up).
///
/// The chains are built without regard to time (validity is a policy, judged on every
/// verification), so what is remembered does not depend on the instant. A remembered chain
/// stands in for building it only when the answer cannot differ:
/// - the leaf is the same object (certificates come from ``X509CertificateCache``, one object per
///   DER encoding; an entry holds its leaf, so the object cannot be freed and its address reused);
/// - every intermediate of the chain is among this verification's candidates, the same OpenSSL
///   object (the chain holds a reference, so its address cannot be reused): an archive that does
///   not embed an intermediate the store does not bundle still fails.
/// The caller builds the chains again when no remembered one satisfies its policies, so an
/// intermediate offered now that was not then is still tried. Bounded: when full it starts over.
final class VerifiedChainCache: Sendable {
    /// A verified chain, leaf first, with the subjects reports print.
    struct Chain: Sendable {
        let certificates: [X509Certificate]
        let subjects: [String]
    }

    private let entries = Mutex<[ObjectIdentifier: [Chain]]>([:])
    let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// The remembered chains of `leaf` that these candidates can still build; nil when none.
    func chains(of leaf: X509Certificate, candidates: [X509Certificate]) -> [Chain]? {
        guard let remembered = entries.withLock({ $0[ObjectIdentifier(leaf)] }) else { return nil }
        let usable = remembered.filter { chain in
            chain.certificates.first === leaf
                && chain.certificates.dropFirst().dropLast().allSatisfy { link in
                    candidates.contains { $0.pointer == link.pointer }
                }
        }
        return usable.isEmpty ? nil : usable
    }

    /// Remembers the chains `X509_verify_cert` built for `leaf` (each one's first element).
    @discardableResult
    func remember(_ chains: [[X509Certificate]], of leaf: X509Certificate) -> [Chain] {
        // OpenSSL hands back its own references; keep the caller's leaf object as the first link.
        let remembered = chains.map { certificates in
            let links = [leaf] + certificates.dropFirst()
            return Chain(certificates: links, subjects: links.map(\.subjectDescription))
        }
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[ObjectIdentifier(leaf)] = remembered
        }
        return remembered
    }

    var count: Int {
        entries.withLock { $0.count }
    }

    /// Forgets every chain (FuzzSignature compares each verdict with one reached without them).
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
