import Foundation

/// A merchant backend's key to the HTTP merchant API. A key is a client of the access core: its
/// ``client`` is entitled to the key's order types exactly as a FinanceStore client is, so the
/// same rule decides what it may save, read and remove.
///
/// The secret is shown once, when the key is created; the store keeps only its SHA-256.
public struct APIKey: Sendable, Hashable, Codable {
    /// Public part of the key (`wok_<identifier>_<secret>`), shown by `orders keys list`.
    public var identifier: String
    public var name: String
    public var createdAt: Date
    public var revokedAt: Date?
    /// The order types it may use: the entitlements of ``client``.
    public var orderTypeIdentifiers: Set<String>

    public init(identifier: String, name: String, createdAt: Date, revokedAt: Date? = nil, orderTypeIdentifiers: Set<String>) {
        self.identifier = identifier
        self.name = name
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.orderTypeIdentifiers = orderTypeIdentifiers
    }

    /// The access-core client the key acts as.
    public var client: ClientIdentifier { Self.client(forKey: identifier) }

    public static func client(forKey identifier: String) -> ClientIdentifier {
        ClientIdentifier(stringLiteral: "apikey.\(identifier)")
    }
}

/// API keys in the store: what a backend keeps (identifier, name, the secret's digest, times);
/// entitlements stay in the ``AccessRepository``.
public protocol APIKeyRepository: Sendable {
    /// Stores a new key. `secretDigest` is the SHA-256 (hex) of the secret.
    func insertKey(_ key: APIKey, secretDigest: String) async throws(StorageError)

    /// The key and its secret digest, revoked or not; nil when there is no such key.
    func key(identifier: String) async throws(StorageError) -> (key: APIKey, secretDigest: String)?

    /// The secret digest alone, nil when there is no such key: the read every authentication
    /// makes before the secret is known to be right. It costs the same whether the key exists
    /// (one statement returning one row, its one column NULL or not), so that timing does not
    /// tell a stranger which identifiers exist.
    func secretDigest(identifier: String) async throws(StorageError) -> String?

    /// Every key, oldest first, with its order types.
    func keys() async throws(StorageError) -> [APIKey]

    /// Marks the key revoked at `time`; false when there is no such key or it already was.
    func revokeKey(identifier: String, at time: Date) async throws(StorageError) -> Bool
}
