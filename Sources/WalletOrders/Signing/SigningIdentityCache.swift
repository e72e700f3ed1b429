import Foundation
import OrderPackage
import OrderStorage
import Synchronization

/// Signers made from stored identities, so that a key is read (a file parsed, a token logged
/// into) once per identity and not per signature. An entry is used only while the stored row
/// is the one it was made from: replacing or removing an identity takes effect at the next
/// signature, in every process.
final class SigningIdentityCache: Sendable {
    private let entries = Mutex<[String: (row: StoredSigningIdentity, identity: SigningIdentity)]>([:])

    func identity(for row: StoredSigningIdentity) -> SigningIdentity? {
        entries.withLock { entries in
            guard let entry = entries[row.orderTypeIdentifier], entry.row == row else { return nil }
            return entry.identity
        }
    }

    func keep(_ identity: SigningIdentity, for row: StoredSigningIdentity) {
        entries.withLock { $0[row.orderTypeIdentifier] = (row, identity) }
    }

    func forget(_ orderTypeIdentifier: String) {
        entries.withLock { $0[orderTypeIdentifier] = nil }
    }
}
