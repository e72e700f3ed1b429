import Foundation
import Synchronization

/// Parsed certificates keyed by their exact DER bytes, so that the certificates every archive of
/// a merchant embeds (its leaf, Apple's WWDR intermediate) are decoded once, not per archive.
///
/// Bounded: when full it starts over, so a stream of distinct certificates costs no more than no
/// cache at all. Entries are immutable `X509` objects; sharing them between tasks is safe.
final class X509CertificateCache: Sendable {
    private let entries = Mutex<[Data: X509Certificate]>([:])
    let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    func certificate(der: Data) throws(OpenSSLError) -> X509Certificate {
        if let cached = entries.withLock({ $0[der] }) { return cached }
        let parsed = try X509Certificate(der: der)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[der] = parsed
        }
        return parsed
    }

    var count: Int {
        entries.withLock { $0.count }
    }
}
