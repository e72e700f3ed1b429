import Foundation
import WalletCore
import WalletPrimitives

/// ``WalletCore/APIKeyRepository`` for every SQL backend; a key's order types are its client's
/// rows of `clientOrderTypes`.
package final class SQLAPIKeyRepository: APIKeyRepository {
    private let executor: any SQLExecutor

    package init(executor: any SQLExecutor) {
        self.executor = executor
    }

    package func insertKey(_ key: APIKey, secretDigest: String) async throws(StorageError) {
        guard StorableText.isExact(key.identifier), StorableText.isExact(key.name), StorableText.isExact(secretDigest),
            key.orderTypeIdentifiers.allSatisfy(StorableText.isExact)
        else { throw StorageError(reason: "an API key's name and order types cannot contain U+0000") }
        let arguments: [SQLValue] = [
            .text(key.identifier), .text(key.name), .text(secretDigest), .instant(key.createdAt), .instant(key.revokedAt),
        ]
        try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.execute(
                    "INSERT INTO apiKeys (identifier, name, secretDigest, createdAt, revokedAt) VALUES ($1, $2, $3, $4, $5)",
                    arguments)
                try await SQLAccessRepository.entitle(key.client, toOrderTypes: key.orderTypeIdentifiers, on: connection)
            }
        }
    }

    package func key(identifier: String) async throws(StorageError) -> (key: APIKey, secretDigest: String)? {
        guard StorableText.isExact(identifier) else { return nil }
        // One statement, one snapshot: every merchant request authenticates.
        return try await reportingStorageErrors {
            try await executor.read { connection in
                try await Self.keys(on: connection, Self.oneKeySQL, [.text(identifier)]).first
            }
        }
    }

    package func secretDigest(identifier: String) async throws(StorageError) -> String? {
        // An identifier with U+0000 cannot be bound: it matches nothing, after the same statement.
        let bound = StorableText.isExact(identifier) ? identifier : ""
        // An unknown identifier reads a digest of the same length as a stored one (no hex digest
        // is all `g`), so that both paths decode and compare the same bytes: a refusal takes as
        // long whether the key exists or not.
        let digest = try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.text(
                    "SELECT coalesce(k.secretDigest, $2) FROM (SELECT 1) AS one LEFT JOIN apiKeys k ON k.identifier = $1",
                    [.text(bound), .text(Self.absentDigest)])
            }
        }
        guard let digest, !ConstantTime.equals(Array(digest.utf8), Array(Self.absentDigest.utf8)) else { return nil }
        return digest
    }

    private static let absentDigest = String(repeating: "g", count: 64)

    package func keys() async throws(StorageError) -> [APIKey] {
        try await reportingStorageErrors {
            try await executor.read { connection in try await Self.keys(on: connection, Self.allKeysSQL).map(\.key) }
        }
    }

    package func revokeKey(identifier: String, at time: Date) async throws(StorageError) -> Bool {
        guard StorableText.isExact(identifier) else { return false }
        return try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.returnsRow(
                    "UPDATE apiKeys SET revokedAt = $1 WHERE identifier = $2 AND revokedAt IS NULL RETURNING 1",
                    [.instant(time), .text(identifier)])
            }
        }
    }

    private static let clientPrefix = APIKey.client(forKey: "").rawValue

    /// Keys with their order types: one row per key and type (the key's client is
    /// `apikey.<identifier>`, ``WalletCore/APIKey/client(forKey:)``), oldest key first.
    private static func keysSQL(where condition: String) -> String {
        """
        SELECT k.identifier, k.name, k.secretDigest, k.createdAt, k.revokedAt, t.orderTypeIdentifier
        FROM apiKeys k LEFT JOIN clientOrderTypes t ON t.client = $1 || k.identifier
        WHERE \(condition) ORDER BY k.createdAt, k.identifier
        """
    }

    private static let allKeysSQL = keysSQL(where: "1 = 1")
    private static let oneKeySQL = keysSQL(where: "k.identifier = $2")

    /// The keys one of those statements reads.
    private static func keys(
        on connection: any SQLConnection, _ sql: String, _ arguments: [SQLValue] = []
    ) async throws -> [(key: APIKey, secretDigest: String)] {
        let rows = try await connection.fetch(sql, [.text(clientPrefix)] + arguments) { row in
            (
                key: APIKey(
                    identifier: try row.text(0), name: try row.text(1), createdAt: Microseconds.date(try row.integer(3)),
                    revokedAt: try row.optionalInteger(4).map(Microseconds.date), orderTypeIdentifiers: []),
                secretDigest: try row.text(2), type: try row.optionalText(5)
            )
        }
        var keys: [(key: APIKey, secretDigest: String)] = []
        for row in rows {
            if keys.last?.key.identifier != row.key.identifier { keys.append((row.key, row.secretDigest)) }
            if let type = row.type { keys[keys.count - 1].key.orderTypeIdentifiers.insert(type) }
        }
        return keys
    }
}
