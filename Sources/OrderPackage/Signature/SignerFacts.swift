import Foundation

/// What the signature says about who signed, for reports and storage.
public struct SignerFacts: Sendable, Hashable, Codable {
    /// The leaf's subject, RFC 2253 (`UID=…,CN=Order Type ID: …,OU=…,O=…,C=…`).
    public var subject: String
    /// The leaf's subject OU: the Apple team identifier.
    public var teamIdentifier: String?
    /// The order type identifier in the leaf's marker extension.
    public var orderTypeIdentifier: String?
    public var notBefore: Date?
    public var notAfter: Date?
    /// Subjects of the verified chain, leaf first (empty when the chain could not be built).
    public var chain: [String]
    /// The signer's digest algorithm, e.g. `sha256`.
    public var digestAlgorithm: String
}
