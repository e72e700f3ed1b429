import Foundation
import OrderPackage

/// A signing identity as a store keeps it: the certificate, its intermediates and where the key
/// is — never the key, its passphrase or its PIN.
public struct StoredSigningIdentity: Sendable, Hashable {
    /// The order type it signs for; one identity per type.
    public var orderTypeIdentifier: String
    /// The certificate's subject OU.
    public var teamIdentifier: String
    /// The Order Type ID certificate, PEM.
    public var certificatePEM: String
    /// The intermediates embedded in every signature (usually Apple's WWDR G4), PEM; may be empty.
    public var intermediatesPEM: String
    /// Lowercase hex SHA-256 of the certificate's DER.
    public var certificateSHA256: String
    /// Where the private key is.
    public var key: SigningKeyLocation
    /// When the certificate stops being valid.
    public var notAfter: Date
    /// When the identity was added (or last replaced).
    public var addedAt: Date

    /// What tells this identity from another of its type: the certificate and where the key is
    /// (a renewed certificate with the same key, or the same certificate with its key moved into
    /// a token, is another revision). Lowercase hex SHA-256.
    public var revision: String {
        SHA256Digest.hex(of: Data((certificateSHA256 + "\n" + key.canonicalJSON).utf8))
    }

    public init(
        orderTypeIdentifier: String, teamIdentifier: String, certificatePEM: String, intermediatesPEM: String,
        certificateSHA256: String, key: SigningKeyLocation, notAfter: Date, addedAt: Date
    ) {
        self.orderTypeIdentifier = orderTypeIdentifier
        self.teamIdentifier = teamIdentifier
        self.certificatePEM = certificatePEM
        self.intermediatesPEM = intermediatesPEM
        self.certificateSHA256 = certificateSHA256
        self.key = key
        self.notAfter = notAfter
        self.addedAt = addedAt
    }
}
