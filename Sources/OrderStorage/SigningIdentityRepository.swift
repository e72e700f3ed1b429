import Foundation
import WalletCore

/// The signing identities a store holds: one active per order type — the one that signs — and
/// at most one staged beside it, waiting to replace it; and what each service instance reported
/// of loading them. Written once for every SQL backend (`WalletStorage`'s
/// `SQLSigningIdentityRepository`).
public protocol SigningIdentityRepository: Sendable {
    /// Stores `identity`, replacing the one its order type had; returns whether one was replaced.
    func put(_ identity: StoredSigningIdentity) async throws(StorageError) -> Bool

    /// The identity for `orderTypeIdentifier`, if any.
    func identity(orderTypeIdentifier: String) async throws(StorageError) -> StoredSigningIdentity?

    /// Every identity, by order type.
    func identities() async throws(StorageError) -> [StoredSigningIdentity]

    /// Removes the identity for `orderTypeIdentifier`; returns whether there was one.
    func remove(orderTypeIdentifier: String) async throws(StorageError) -> Bool

    /// Stages `identity` for its order type, replacing a staged one; returns whether one was.
    func stage(_ identity: StoredSigningIdentity) async throws(StorageError) -> Bool

    /// Every staged identity, by order type.
    func stagedIdentities() async throws(StorageError) -> [StoredSigningIdentity]

    /// Makes the staged identity of `orderTypeIdentifier` the active one, in one unit of work,
    /// if its revision is `revision` (what was checked); returns it, or nil when none such is staged.
    func activate(orderTypeIdentifier: String, revision: String) async throws(StorageError) -> StoredSigningIdentity?

    /// Removes the staged identity of `orderTypeIdentifier`; returns whether there was one.
    func removeStaged(orderTypeIdentifier: String) async throws(StorageError) -> Bool

    /// Records `reports` in one unit of work, each replacing its instance's earlier one for the
    /// same identity, and forgets reports older than `forgetBefore` (instances gone).
    func record(_ reports: [SigningIdentityReport], forgetBefore: Date) async throws(StorageError)

    /// Every report, newest first.
    func reports() async throws(StorageError) -> [SigningIdentityReport]

    /// Forgets every report of `instance` (it stopped).
    func forgetReports(of instance: String) async throws(StorageError)
}
