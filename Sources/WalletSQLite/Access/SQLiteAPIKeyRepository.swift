import Foundation
import GRDB
import WalletCore
import WalletPrimitives

/// ``WalletCore/APIKeyRepository`` in the store file; order types are the key client's rows of
/// `clientOrderTypes`.
final class SQLiteAPIKeyRepository: APIKeyRepository {
    private let executor: SQLiteExecutor

    init(executor: SQLiteExecutor) {
        self.executor = executor
    }

    func insertKey(_ key: APIKey, secretDigest: String) async throws(StorageError) {
        guard SQLiteText.isExact(key.identifier), SQLiteText.isExact(key.name),
            key.orderTypeIdentifiers.allSatisfy(SQLiteText.isExact)
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
        // Two lone statements rather than a transaction (every merchant request authenticates; a
        // read transaction costs more than both): the key's types may be read a moment after its
        // row, which no caller can tell from an entitlement changed just after the lookup.
        guard
            let row = try executor.readAccess(
                singleStatement: true,
                { db in
                    try Row.fetchOne(
                        db.cachedStatement(sql: "SELECT * FROM apiKeys WHERE identifier = ?"), arguments: [identifier])
                })
        else { return nil }
        let types = try executor.readAccess(singleStatement: true) { db in
            try SQLiteAccessRepository.orderTypes(of: APIKey.client(forKey: identifier), in: db)
        }
        return (Self.key(row, orderTypes: types), row["secretDigest"])
    }

    func keys() async throws(StorageError) -> [APIKey] {
        try executor.readAccess { db in
            try Row.fetchAll(db, sql: "SELECT * FROM apiKeys ORDER BY createdAt, identifier").map { row in
                let identifier: String = row["identifier"]
                return Self.key(
                    row, orderTypes: try SQLiteAccessRepository.orderTypes(of: APIKey.client(forKey: identifier), in: db))
            }
        }
    }

    func revokeKey(identifier: String, at time: Date) async throws(StorageError) -> Bool {
        try await executor.writeAccess { db in
            try db.execute(
                sql: "UPDATE apiKeys SET revokedAt = ? WHERE identifier = ? AND revokedAt IS NULL",
                arguments: [Microseconds.since1970(time), identifier])
            return db.changesCount > 0
        }
    }

    private static func key(_ row: Row, orderTypes: Set<String>) -> APIKey {
        APIKey(
            identifier: row["identifier"], name: row["name"], createdAt: Microseconds.date(row["createdAt"]),
            revokedAt: (row["revokedAt"] as Int64?).map(Microseconds.date), orderTypeIdentifiers: orderTypes)
    }
}
