import Foundation
import WalletPrimitives

/// The certificates a signature may chain to: trusted roots, plus intermediates offered as
/// untrusted candidates for building the chain.
///
/// ``apple`` holds Apple's roots (Apple Root CA, G2, G3) and every WWDR intermediate (G1 2008 and
/// 2013, G2–G6), compiled into the library. Real archives often embed the *wrong* WWDR
/// generation, so the bundled intermediates are always offered alongside the embedded ones;
/// roots come from the store only, never from the archive.
///
/// ```swift
/// let testRoot = try Data(contentsOf: URL(fileURLWithPath: "TestArchives/pki/root.pem"))
/// let store = try TrustStore.apple.adding(roots: [testRoot])
/// ```
///
/// A store is immutable and safe to share between tasks: build it once. It remembers the chains it
/// verified (a bounded cache that never changes a verdict), so a long-lived store is also a fast one.
public final class TrustStore: Sendable {
    let roots: [X509Certificate]
    let intermediates: [X509Certificate]
    /// Nil only if OpenSSL could not allocate the embedded store; such a store trusts nothing.
    let store: X509Store?
    /// Chains verified against this store, by leaf (``VerifiedChainCache`` says when one is reused).
    let verifiedChains = VerifiedChainCache()

    /// Apple's public roots and WWDR intermediates, built once.
    public static let apple: TrustStore = {
        let roots = AppleCertificateAuthorities.roots.compactMap {
            try? X509Certificate.certificates(pemOrDER: Data($0.pem.utf8)).first
        }
        let intermediates = AppleCertificateAuthorities.intermediates.compactMap {
            try? X509Certificate.certificates(pemOrDER: Data($0.pem.utf8)).first
        }
        // The embedded PEMs are pinned by TrustStoreTests; an unparsable one there means a broken
        // build, and leaving it out can only make verification stricter, never weaker.
        return (try? TrustStore(roots: roots, intermediates: intermediates)) ?? TrustStore(empty: ())
    }()

    /// A store with the given roots and intermediates (PEM, possibly several per file, or DER).
    public convenience init(roots: [Data], intermediates: [Data] = []) throws(TrustStoreError) {
        try self.init(roots: Self.parse(roots), intermediates: Self.parse(intermediates))
    }

    init(roots: [X509Certificate], intermediates: [X509Certificate]) throws(TrustStoreError) {
        do {
            store = try X509Store(roots: roots)
        } catch {
            throw TrustStoreError(reason: error.description)
        }
        self.roots = roots
        self.intermediates = intermediates
    }

    private init(empty: ()) {
        roots = []
        intermediates = []
        store = nil
    }

    /// This store plus extra trusted roots, e.g. a test PKI or a private deployment's root.
    public func adding(roots extraRoots: [Data]) throws(TrustStoreError) -> TrustStore {
        try TrustStore(roots: roots + Self.parse(extraRoots), intermediates: intermediates)
    }

    /// This store plus extra intermediates offered for chain building.
    public func adding(intermediates extra: [Data]) throws(TrustStoreError) -> TrustStore {
        try TrustStore(roots: roots, intermediates: intermediates + Self.parse(extra))
    }

    /// RFC 2253 subjects of the trusted roots.
    public var rootSubjects: [String] {
        roots.map(\.subjectDescription)
    }

    /// Lowercase hex SHA-256 fingerprints of the trusted roots and of the intermediates.
    public var fingerprints: (roots: [String], intermediates: [String]) {
        (roots.map(\.sha256Fingerprint), intermediates.map(\.sha256Fingerprint))
    }

    private static func parse(_ blobs: [Data]) throws(TrustStoreError) -> [X509Certificate] {
        var certificates: [X509Certificate] = []
        for blob in blobs {
            do {
                certificates += try X509Certificate.certificates(pemOrDER: blob)
            } catch {
                throw TrustStoreError(reason: error.description)
            }
        }
        return certificates
    }
}

/// A certificate given to a ``TrustStore`` could not be used.
public struct TrustStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

extension TrustStoreError: WalletError {
    public var code: String { "trust.invalidCertificate" }
    public var message: String { reason }
    public var category: ErrorCategory { .invalidInput }
}
