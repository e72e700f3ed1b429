import Foundation
import OrderPackage
import OrderStorage
import WalletCore
import WalletPrimitives

/// ``OrderStorage/SigningIdentityRepository`` for every SQL backend: one row of
/// `signingIdentities` per order type, the key's location as JSON (``OrderPackage/SigningKeyLocation``'s
/// `Codable` form).
package final class SQLSigningIdentityRepository: SigningIdentityRepository {
    private let executor: any SQLExecutor

    package init(executor: any SQLExecutor) {
        self.executor = executor
    }

    private static let columns =
        "orderTypeIdentifier, teamIdentifier, certificate, intermediates, certificateSHA256, keyLocation, notAfter, addedAt"

    package func put(_ identity: StoredSigningIdentity) async throws(StorageError) -> Bool {
        let location = try Self.encode(identity.key)
        guard
            [
                identity.orderTypeIdentifier, identity.teamIdentifier, identity.certificatePEM, identity.intermediatesPEM,
                identity.certificateSHA256, location,
            ].allSatisfy(StorableText.isExact)
        else { throw StorageError(reason: "a signing identity's text cannot contain U+0000") }
        let arguments: [SQLValue] = [
            .text(identity.orderTypeIdentifier), .text(identity.teamIdentifier), .text(identity.certificatePEM),
            .text(identity.intermediatesPEM), .text(identity.certificateSHA256), .text(location), .instant(identity.notAfter),
            .instant(identity.addedAt),
        ]
        return try await reportingStorageErrors {
            try await executor.write { connection in
                let replaced = try await connection.returnsRow(
                    "DELETE FROM signingIdentities WHERE orderTypeIdentifier = $1 RETURNING 1",
                    [.text(identity.orderTypeIdentifier)])
                try await connection.execute(
                    "INSERT INTO signingIdentities (\(Self.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", arguments)
                return replaced
            }
        }
    }

    package func identity(orderTypeIdentifier: String) async throws(StorageError) -> StoredSigningIdentity? {
        guard StorableText.isExact(orderTypeIdentifier) else { return nil }
        return try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.fetch(
                    "SELECT \(Self.columns) FROM signingIdentities WHERE orderTypeIdentifier = $1", [.text(orderTypeIdentifier)],
                    Self.decode
                ).first
            }
        }
    }

    package func identities() async throws(StorageError) -> [StoredSigningIdentity] {
        try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.fetch(
                    "SELECT \(Self.columns) FROM signingIdentities ORDER BY orderTypeIdentifier", [], Self.decode)
            }
        }
    }

    package func remove(orderTypeIdentifier: String) async throws(StorageError) -> Bool {
        guard StorableText.isExact(orderTypeIdentifier) else { return false }
        return try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.returnsRow(
                    "DELETE FROM signingIdentities WHERE orderTypeIdentifier = $1 RETURNING 1", [.text(orderTypeIdentifier)])
            }
        }
    }

    private static func encode(_ location: SigningKeyLocation) throws(StorageError) -> String {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(location), as: UTF8.self)
        } catch {
            throw StorageError(reason: "cannot encode a key location: \(error)")
        }
    }

    private static func decode(_ row: any SQLRow) throws -> StoredSigningIdentity {
        let location = try row.text(5)
        guard let key = try? JSONDecoder().decode(SigningKeyLocation.self, from: Data(location.utf8)) else {
            throw StorageError(reason: "a signing identity's key location is unreadable: \(MessageText.quote(location))")
        }
        return StoredSigningIdentity(
            orderTypeIdentifier: try row.text(0), teamIdentifier: try row.text(1), certificatePEM: try row.text(2),
            intermediatesPEM: try row.text(3), certificateSHA256: try row.text(4), key: key,
            notAfter: Microseconds.date(try row.integer(6)), addedAt: Microseconds.date(try row.integer(7)))
    }
}
