import Foundation
import OrderPackage
import OrderStorage
import WalletCore
import WalletPrimitives

/// Signing identities: the certificates and keys the store signs authored orders with, one per
/// order type. The store keeps the certificate and where the key is (``SigningKeyLocation``),
/// never the key, its passphrase or its PIN.
///
/// ```swift
/// let added = try await wallet.addSigningIdentity(
///     orderTypeIdentifier: "order.com.example.shop",
///     certificate: Data(contentsOf: certificateURL),
///     key: .pkcs11(uri: "pkcs11:token=shop;object=order-key", module: nil, pin: .environment(name: "SHOP_PIN")),
///     intermediates: [Data(contentsOf: wwdrURL)])
/// let identity = try await wallet.signingIdentity(for: "order.com.example.shop")
/// ```
extension WalletStore {
    /// Checks an identity as Wallet will check what it signs and stores it, replacing the type's
    /// previous one.
    ///
    /// - Throws: `OrderSignerError` when the certificate or key cannot be read, the key is not the
    ///   certificate's (`signer.keyMismatch`) or a secret is misplaced; ``SigningIdentityError``
    ///   when the certificate is not an Order Type ID certificate for the type, is not valid now,
    ///   or does not chain to a root the store's verifier trusts.
    ///
    /// With `activation` ``SigningActivation/staged`` (the default) an identity for a type that
    /// already has one is staged beside it: the active one keeps signing until
    /// ``activateSigningIdentity(orderTypeIdentifier:force:liveWithin:)`` — so that an instance
    /// that cannot load the new key (its passphrase variable not yet set) never stops signing.
    public func addSigningIdentity(
        orderTypeIdentifier: String, certificate: Data?, key: SigningKeyLocation, intermediates: [Data] = [],
        activation: SigningActivation = .staged
    ) async throws -> AddedSigningIdentity {
        try await control.checkUsable(.orders, for: "addSigningIdentity")
        let signer = try OrderSigner(certificate: certificate, key: key, intermediates: intermediates)
        let now = configuration.clock()
        let identity = try SigningIdentity(
            orderTypeIdentifier: orderTypeIdentifier, signer: signer, verifier: configuration.verifier, at: now)
        let row = StoredSigningIdentity(
            orderTypeIdentifier: orderTypeIdentifier, teamIdentifier: identity.teamIdentifier ?? "",
            certificatePEM: signer.certificatePEM, intermediatesPEM: signer.intermediatesPEM,
            certificateSHA256: signer.certificateSHA256, key: key, notAfter: identity.notAfter ?? .distantFuture,
            addedAt: now)
        if activation == .staged, try await backend.signingIdentities.identity(orderTypeIdentifier: orderTypeIdentifier) != nil {
            let replaced = try await backend.signingIdentities.stage(row)
            signingIdentityCache.keepStaged(identity, for: row)
            return AddedSigningIdentity(identity: row, replacedAnother: replaced, isStaged: true)
        }
        let replaced = try await backend.signingIdentities.put(row)
        signingIdentityCache.keep(identity, for: row)
        return AddedSigningIdentity(identity: row, replacedAnother: replaced, isStaged: false)
    }

    /// Every identity the store holds, by order type.
    public func signingIdentities() async throws -> [StoredSigningIdentity] {
        try await backend.signingIdentities.identities()
    }

    /// Whether the store holds an identity for `orderTypeIdentifier` (one row read, no key loaded).
    public func hasSigningIdentity(for orderTypeIdentifier: String) async throws -> Bool {
        try await backend.signingIdentities.identity(orderTypeIdentifier: orderTypeIdentifier) != nil
    }

    /// Removes the identity of `orderTypeIdentifier`.
    ///
    /// - Throws: ``SigningIdentityError/notFound(orderTypeIdentifier:)`` when there is none.
    public func removeSigningIdentity(orderTypeIdentifier: String) async throws {
        guard try await backend.signingIdentities.remove(orderTypeIdentifier: orderTypeIdentifier) else {
            throw SigningIdentityError.notFound(orderTypeIdentifier: orderTypeIdentifier)
        }
        signingIdentityCache.forget(orderTypeIdentifier)
    }

    /// The identity that signs `orderTypeIdentifier`'s orders, its key loaded once and kept while
    /// the stored identity stays the same (one read of the store per call, so that a removal or
    /// replacement by another process counts at once). A load that failed is tried again after a
    /// backoff of 1 s, doubling to 30 s (the failure's error meanwhile), so that a fix to a file,
    /// a token or the environment takes effect without a restart.
    ///
    /// - Throws: ``SigningIdentityError/notFound(orderTypeIdentifier:)`` when the store holds none;
    ///   the errors of ``addSigningIdentity(orderTypeIdentifier:certificate:key:intermediates:)``
    ///   when the key can no longer be loaded or the certificate has expired since.
    public func signingIdentity(for orderTypeIdentifier: String) async throws -> SigningIdentity {
        guard let row = try await backend.signingIdentities.identity(orderTypeIdentifier: orderTypeIdentifier) else {
            throw SigningIdentityError.notFound(orderTypeIdentifier: orderTypeIdentifier)
        }
        return try signingIdentity(of: row)
    }

    /// The signer of `row` (the type's active identity, read by the caller): kept, or loaded under
    /// the failure backoff.
    func signingIdentity(of row: StoredSigningIdentity) throws -> SigningIdentity {
        let now = configuration.clock()
        if let kept = signingIdentityCache.identity(for: row), kept.notAfter.map({ $0 > now }) ?? true {
            return kept
        }
        if let failure = signingIdentityCache.failure(for: row, at: now) { throw failure }
        do {
            let identity = try load(row)
            signingIdentityCache.keep(identity, for: row)
            return identity
        } catch {
            signingIdentityCache.failed(row, with: error, at: now)
            throw error
        }
    }

    /// Checks every identity as signing would, afresh (nothing kept is used): the key loaded —
    /// its file read, its passphrase or PIN read, a token logged into —, a probe manifest signed
    /// and its signature verified with the chain and signer policy Wallet applies; and each
    /// certificate's expiry. What `orders doctor` reports.
    public func checkSigningIdentities() async throws -> [SigningIdentityHealth] {
        let active = try await backend.signingIdentities.identities().map { ($0, false) }
        let staged = try await backend.signingIdentities.stagedIdentities().map { ($0, true) }
        return (active + staged).map { row, isStaged in
            let failure: (any WalletError)?
            do {
                _ = try load(row)
                failure = nil
            } catch let error as any WalletError {
                failure = error
            } catch {
                failure = SigningIdentityError.cannotSign(reason: "\(error)")
            }
            return SigningIdentityHealth(
                identity: row, isStaged: isStaged,
                expiries: CertificateExpiry.of(certificatePEM: row.certificatePEM, intermediatesPEM: row.intermediatesPEM),
                failure: failure)
        }
    }

    /// The expiries of every identity's certificates, by order type (no key is loaded).
    public func signingCertificateExpiries() async throws -> [String: [CertificateExpiry]] {
        var expiries: [String: [CertificateExpiry]] = [:]
        for row in try await backend.signingIdentities.identities() {
            expiries[row.orderTypeIdentifier] = CertificateExpiry.of(
                certificatePEM: row.certificatePEM, intermediatesPEM: row.intermediatesPEM)
        }
        return expiries
    }

    func load(_ row: StoredSigningIdentity) throws -> SigningIdentity {
        let signer = try OrderSigner(
            certificate: Data(row.certificatePEM.utf8), key: row.key,
            intermediates: row.intermediatesPEM.isEmpty ? [] : [Data(row.intermediatesPEM.utf8)])
        return try SigningIdentity(
            orderTypeIdentifier: row.orderTypeIdentifier, signer: signer, verifier: configuration.verifier,
            at: configuration.clock())
    }
}

/// What ``WalletStore/checkSigningIdentities()`` found of one identity.
public struct SigningIdentityHealth: Sendable {
    public let identity: StoredSigningIdentity
    /// Whether it is staged, waiting to replace the type's active identity.
    public let isStaged: Bool
    /// Its certificate's expiry, then each intermediate's.
    public let expiries: [CertificateExpiry]
    /// Why it cannot sign now (`signer.*`, `signing.*`), nil when it can.
    public let failure: (any WalletError)?
}

/// What ``WalletStore/addSigningIdentity(orderTypeIdentifier:certificate:key:intermediates:activation:)`` stored.
public struct AddedSigningIdentity: Sendable, Hashable {
    public let identity: StoredSigningIdentity
    /// Whether the order type had an identity in the same place (active, or staged), now replaced.
    public let replacedAnother: Bool
    /// Whether it was staged beside the active one rather than made active.
    public let isStaged: Bool
}

/// When a new signing identity signs.
public enum SigningActivation: Sendable, Hashable {
    /// Beside an active identity, staged until activated; the first of its type, at once.
    case staged
    /// At once, replacing the active identity (one instance, or every instance known to load it).
    case immediately
}
