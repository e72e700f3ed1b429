import Foundation
import WalletCore

/// The signing identities a store holds, one per order type. Written once for every SQL backend
/// (`WalletStorage`'s `SQLSigningIdentityRepository`).
public protocol SigningIdentityRepository: Sendable {
    /// Stores `identity`, replacing the one its order type had; returns whether one was replaced.
    func put(_ identity: StoredSigningIdentity) async throws(StorageError) -> Bool

    /// The identity for `orderTypeIdentifier`, if any.
    func identity(orderTypeIdentifier: String) async throws(StorageError) -> StoredSigningIdentity?

    /// Every identity, by order type.
    func identities() async throws(StorageError) -> [StoredSigningIdentity]

    /// Removes the identity for `orderTypeIdentifier`; returns whether there was one.
    func remove(orderTypeIdentifier: String) async throws(StorageError) -> Bool
}
