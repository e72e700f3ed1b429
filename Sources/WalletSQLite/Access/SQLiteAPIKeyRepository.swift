import Foundation
import GRDB
import WalletCore
import WalletPrimitives
import WalletStorage

/// ``WalletCore/APIKeyRepository`` in the store file; order types are the key client's rows of
/// `clientOrderTypes`.
final class SQLiteAPIKeyRepository: APIKeyRepository {
    private let executor: SQLiteExecutor

    init(executor: SQLiteExecutor) {
        self.executor = executor
    }

    func insertKey(_ key: APIKey, secretDigest: String) async throws(StorageError) {
        guard StorableText.isExact(key.identifier), StorableText.isExact(key.name),
            key.orderTypeIdentifiers.allSatisfy(StorableText.isExact)
        else { throw StorageError(reason: "an API key's name and order types cannot contain U+0000") }
        try await executor.writeAccess { db in
            try db.execute(
                sql: "INSERT INTO apiKeys (identifier, name, secretDigest, createdAt, revokedAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [
                    key.identifier, key.name, secretDigest, Microseconds.since1970(key.createdAt),
                    key.revokedAt.map(Microseconds.since1970),
                ])
            try SQLiteAccessRepository.entitle(key.client, toOrderTypes: key.orderTypeIdentifiers, in: db)
        }
    }

    func key(identifier: String) async throws(StorageError) -> (key: APIKey, secretDigest: String)? {
        // One lone statement, one snapshot: every merchant request authenticates.
        try executor.readAccess(singleStatement: true) { db in
            try Self.keys(in: db, where: "k.identifier = ?", arguments: [identifier]).first
        }
    }

    func secretDigest(identifier: String) async throws(StorageError) -> String? {
        try executor.readAccess(singleStatement: true) { db in
            try String?.fetchOne(
                db.cachedStatement(sql: "SELECT k.secretDigest FROM (SELECT 1) LEFT JOIN apiKeys k ON k.identifier = ?"),
                arguments: [identifier]) ?? nil
        }
    }

    func keys() async throws(StorageError) -> [APIKey] {
        try executor.readAccess(singleStatement: true) { db in try Self.keys(in: db).map(\.key) }
    }

    func revokeKey(identifier: String, at time: Date) async throws(StorageError) -> Bool {
        try await executor.writeAccess { db in
            try db.execute(
                sql: "UPDATE apiKeys SET revokedAt = ? WHERE identifier = ? AND revokedAt IS NULL",
                arguments: [Microseconds.since1970(time), identifier])
            return db.changesCount > 0
        }
    }

    private static let clientPrefix = APIKey.client(forKey: "").rawValue

    /// Keys with their order types: one row per key and type (the key's client is
    /// `apikey.<identifier>`, ``WalletCore/APIKey/client(forKey:)``), oldest key first.
    private static func keys(
        in db: Database, where condition: String = "1", arguments: StatementArguments = []
    ) throws -> [(key: APIKey, secretDigest: String)] {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT k.identifier, k.name, k.secretDigest, k.createdAt, k.revokedAt, t.orderTypeIdentifier
                    FROM apiKeys k LEFT JOIN clientOrderTypes t ON t.client = ? || k.identifier
                    WHERE \(condition) ORDER BY k.createdAt, k.identifier
                    """), arguments: [Self.clientPrefix] + arguments)
        var keys: [(key: APIKey, secretDigest: String)] = []
        for row in rows {
            let identifier: String = row[0]
            if keys.last?.key.identifier != identifier {
                keys.append(
                    (
                        APIKey(
                            identifier: identifier, name: row[1], createdAt: Microseconds.date(row[3]),
                            revokedAt: (row[4] as Int64?).map(Microseconds.date), orderTypeIdentifiers: []),
                        row[2]
                    ))
            }
            if let type: String = row[5] { keys[keys.count - 1].key.orderTypeIdentifiers.insert(type) }
        }
        return keys
    }
}
