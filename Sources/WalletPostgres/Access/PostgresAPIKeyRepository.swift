import Foundation
import PostgresNIO
import WalletCore
import WalletPrimitives
import WalletStorage

/// ``WalletCore/APIKeyRepository`` in PostgreSQL; order types are the key client's rows of
/// `clientOrderTypes`.
final class PostgresAPIKeyRepository: APIKeyRepository {
    private let executor: PostgresExecutor

    init(executor: PostgresExecutor) {
        self.executor = executor
    }

    func insertKey(_ key: APIKey, secretDigest: String) async throws(StorageError) {
        guard StorableText.isExact(key.identifier), StorableText.isExact(key.name), StorableText.isExact(secretDigest),
            key.orderTypeIdentifiers.allSatisfy(StorableText.isExact)
        else { throw StorageError(reason: "an API key's name and order types cannot contain U+0000") }
        let arguments: [SQLValue] = [
            .text(key.identifier), .text(key.name), .text(secretDigest), .integer(Microseconds.since1970(key.createdAt)),
            key.revokedAt.microseconds,
        ]
        try await executor.writeAccess { connection, logger in
            try await connection.run(
                "INSERT INTO apiKeys (identifier, name, secretDigest, createdAt, revokedAt) VALUES ($1, $2, $3, $4, $5)",
                arguments, logger: logger)
            try await PostgresAccessRepository.entitle(
                key.client, toOrderTypes: key.orderTypeIdentifiers, on: connection, logger: logger)
        }
    }

    func key(identifier: String) async throws(StorageError) -> (key: APIKey, secretDigest: String)? {
        guard StorableText.isExact(identifier) else { return nil }
        // One statement, one snapshot: every merchant request authenticates.
        return try await executor.readAccess { connection, logger in
            try await Self.keys(on: connection, logger: logger, where: "k.identifier = $2", [.text(identifier)]).first
        }
    }

    func secretDigest(identifier: String) async throws(StorageError) -> String? {
        // An identifier with U+0000 cannot be bound: it matches nothing, after the same statement.
        let bound = StorableText.isExact(identifier) ? identifier : ""
        return try await executor.readAccess { connection, logger in
            try await connection.rows(
                "SELECT k.secretDigest FROM (SELECT 1) AS one LEFT JOIN apiKeys k ON k.identifier = $1", [.text(bound)],
                logger: logger
            ).first?.optionalText(0)
        }
    }

    func keys() async throws(StorageError) -> [APIKey] {
        try await executor.readAccess { connection, logger in try await Self.keys(on: connection, logger: logger).map(\.key) }
    }

    func revokeKey(identifier: String, at time: Date) async throws(StorageError) -> Bool {
        guard StorableText.isExact(identifier) else { return false }
        return try await executor.writeAccess { connection, logger in
            try await !connection.rows(
                "UPDATE apiKeys SET revokedAt = $1 WHERE identifier = $2 AND revokedAt IS NULL RETURNING 1",
                [.integer(Microseconds.since1970(time)), .text(identifier)], logger: logger
            ).isEmpty
        }
    }

    private static let clientPrefix = APIKey.client(forKey: "").rawValue

    /// Keys with their order types: one row per key and type (the key's client is
    /// `apikey.<identifier>`, ``WalletCore/APIKey/client(forKey:)``), oldest key first.
    private static func keys(
        on connection: PostgresConnection, logger: Logger, where condition: String = "TRUE", _ arguments: [SQLValue] = []
    ) async throws -> [(key: APIKey, secretDigest: String)] {
        let rows = try await connection.rows(
            """
            SELECT k.identifier, k.name, k.secretDigest, k.createdAt, k.revokedAt, t.orderTypeIdentifier
            FROM apiKeys k LEFT JOIN clientOrderTypes t ON t.client = $1 || k.identifier
            WHERE \(condition) ORDER BY k.createdAt, k.identifier
            """, [.text(clientPrefix)] + arguments, logger: logger)
        var keys: [(key: APIKey, secretDigest: String)] = []
        for row in rows {
            let identifier = try row.text(0)
            if keys.last?.key.identifier != identifier {
                let key = APIKey(
                    identifier: identifier, name: try row.text(1), createdAt: Microseconds.date(try row.integer(3)),
                    revokedAt: try row.optionalInteger(4).map(Microseconds.date), orderTypeIdentifiers: [])
                keys.append((key, try row.text(2)))
            }
            if let type = try row.optionalText(5) { keys[keys.count - 1].key.orderTypeIdentifiers.insert(type) }
        }
        return keys
    }
}
