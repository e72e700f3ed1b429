import Foundation
import WalletConsent
import WalletCore
import WalletPrimitives

/// ``WalletConsent/ConsentRepository`` for every SQL backend. What must hold against a
/// concurrent request is one unit of work reading with the dialect's row lock: redeeming a code
/// (used once, by whoever locks it first), rotating a refresh token, revoking a client.
package final class SQLConsentRepository: ConsentRepository {
    private let executor: any SQLExecutor

    package init(executor: any SQLExecutor) {
        self.executor = executor
    }

    // MARK: - Owner

    package func ownerPasswordHash() async throws(StorageError) -> String? {
        try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.text("SELECT passwordHash FROM ownerCredential WHERE id = 1")
            }
        }
    }

    package func setOwnerPasswordHash(_ hash: String, at time: Date) async throws(StorageError) {
        try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.execute(
                    """
                    INSERT INTO ownerCredential (id, passwordHash, changedAt) VALUES (1, $1, $2)
                    ON CONFLICT (id) DO UPDATE SET passwordHash = excluded.passwordHash, changedAt = excluded.changedAt
                    """, [.text(hash), .instant(time)])
                // A new password ends every session signed in with the old one, trusts no browser
                // that knew the old one, and starts every count afresh.
                try await connection.execute("DELETE FROM ownerSessions")
                try await connection.execute("DELETE FROM trustedDevices")
                try await connection.execute("DELETE FROM signInAttempts")
            }
        }
    }

    package func insertSession(_ session: OwnerSession) async throws(StorageError) {
        try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.execute(
                    "INSERT INTO ownerSessions (digest, formToken, createdAt, lastSeenAt) VALUES ($1, $2, $3, $4)",
                    [.text(session.digest), .text(session.formToken), .instant(session.createdAt), .instant(session.lastSeenAt)])
            }
        }
    }

    package func session(digest: String) async throws(StorageError) -> OwnerSession? {
        try await reportingStorageErrors {
            try await executor.read { connection in
                try await connection.fetchOne(
                    "SELECT digest, formToken, createdAt, lastSeenAt FROM ownerSessions WHERE digest = $1", [.text(digest)]
                ) { row in
                    OwnerSession(
                        digest: try row.text(0), formToken: try row.text(1), createdAt: Microseconds.date(try row.integer(2)),
                        lastSeenAt: Microseconds.date(try row.integer(3)))
                }
            }
        }
    }

    package func touchSession(digest: String, at time: Date) async throws(StorageError) {
        try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.execute(
                    "UPDATE ownerSessions SET lastSeenAt = $2 WHERE digest = $1 AND lastSeenAt < $2",
                    [.text(digest), .instant(time)])
            }
        }
    }

    package func deleteSession(digest: String) async throws(StorageError) {
        try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.execute("DELETE FROM ownerSessions WHERE digest = $1", [.text(digest)])
            }
        }
    }

    package func admitSignIn(_ attempt: SignInAttempt, throttle: SignInThrottle) async throws(StorageError) -> SignInAdmission {
        let since: SQLValue = .instant(attempt.at.addingTimeInterval(-throttle.window))
        let lock = executor.dialect.lockingRead
        // A trusted device's attempts count against it alone; the others against their address
        // and network. For each limited key: how many attempts it has in the window, and the
        // oldest of the newest `limit` (the one whose leaving the window frees a place).
        let keys: [(condition: String, value: String, limit: Int)] =
            attempt.device.map { [("device = $", $0, throttle.perDevice)] }
            ?? [
                ("address = $", attempt.address, throttle.perAddress),
                ("network = $", attempt.network, throttle.perNetwork),
            ]
        var columns: [String] = []
        var arguments: [SQLValue] = [since]
        for key in keys {
            arguments += [.text(key.value), .integer(Int64(key.limit))]
            let (value, limit) = (arguments.count - 1, arguments.count)
            let trusted = key.condition.hasPrefix("device") ? "" : " AND device IS NULL"
            let matching = "FROM signInAttempts WHERE \(key.condition)\(value)\(trusted) AND attemptedAt >= $1"
            columns.append("(SELECT count(*) \(matching))")
            columns.append(
                "(SELECT min(attemptedAt) FROM (SELECT attemptedAt \(matching) ORDER BY attemptedAt DESC LIMIT $\(limit)) AS newest)"
            )
        }
        columns.append("(SELECT count(*) FROM signInAttempts WHERE device IS NULL AND attemptedAt >= $1)")
        let countsSQL = "SELECT " + columns.joined(separator: ", ")
        let countArguments = arguments
        return try await reportingStorageErrors {
            try await executor.write { connection in
                // Every admission waits for the one before it (SQLite: the unit's writer; others:
                // this row's lock), so that the counts it reads next are final.
                _ = try await connection.fetchOne("SELECT id FROM signInGate WHERE id = 1 \(lock)") { _ in () }
                // Two texts in all (a device's, or an address's and network's): kept prepared.
                let counts = try await connection.fetch(countsSQL, countArguments, reusable: true) { row in
                    try (0..<(keys.count * 2 + 1)).map { try row.optionalInteger($0) ?? 0 }
                }.first
                guard let counts else { throw StorageError(reason: "the store answered no row") }
                for (index, key) in keys.enumerated() where counts[index * 2] >= key.limit {
                    return SignInAdmission.refused(
                        until: Microseconds.date(counts[index * 2 + 1]).addingTimeInterval(throttle.window))
                }
                try await connection.execute(
                    "INSERT INTO signInAttempts (address, network, device, attemptedAt) VALUES ($1, $2, $3, $4)",
                    [
                        .text(attempt.address), .text(attempt.network), attempt.device.map { .text($0) } ?? .null,
                        .instant(attempt.at),
                    ])
                let untrusted = Int(counts[keys.count * 2]) + (attempt.device == nil ? 1 : 0)
                return SignInAdmission.admitted(recentUntrusted: untrusted)
            }
        }
    }

    package func clearSignInAttempts(address: String, device: String?) async throws(StorageError) {
        try await reportingStorageErrors {
            try await executor.write { connection in
                if let device {
                    try await connection.execute("DELETE FROM signInAttempts WHERE device = $1", [.text(device)])
                } else {
                    try await connection.execute(
                        "DELETE FROM signInAttempts WHERE address = $1 AND device IS NULL", [.text(address)])
                }
            }
        }
    }

    package func clearAllSignInAttempts() async throws(StorageError) -> Int {
        try await reportingStorageErrors {
            try await executor.write { connection in try await connection.count("DELETE FROM signInAttempts RETURNING 1") }
        }
    }

    package func insertTrustedDevice(digest: String, at time: Date) async throws(StorageError) {
        try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.execute(
                    "INSERT INTO trustedDevices (digest, createdAt, lastUsedAt) VALUES ($1, $2, $2)",
                    [.text(digest), .instant(time)])
            }
        }
    }

    package func useTrustedDevice(digest: String, unusedSince time: Date, at now: Date) async throws(StorageError) -> Bool {
        try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.returnsRow(
                    "UPDATE trustedDevices SET lastUsedAt = $3 WHERE digest = $1 AND lastUsedAt >= $2 RETURNING 1",
                    [.text(digest), .instant(time), .instant(now)])
            }
        }
    }

    package func deleteTrustedDevice(digest: String) async throws(StorageError) {
        try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.execute("DELETE FROM trustedDevices WHERE digest = $1", [.text(digest)])
            }
        }
    }

    // MARK: - Clients

    package func insertClient(_ client: RegisteredClient, secretDigest: String?) async throws(StorageError) -> Bool {
        guard StorableText.isExact(client.name), client.redirectURIs.allSatisfy(StorableText.isExact) else {
            throw StorageError(reason: "a client name or redirect URI containing U+0000 cannot be stored")
        }
        return try await reportingStorageErrors {
            try await executor.write { connection in
                let id: SQLValue = .text(client.id.rawValue)
                guard
                    try await connection.returnsRow(
                        """
                        INSERT INTO financeClients (client, name, secretDigest, createdAt, revokedAt) VALUES ($1, $2, $3, $4, NULL)
                        ON CONFLICT (client) DO NOTHING RETURNING 1
                        """, [id, .text(client.name), .text(secretDigest), .instant(client.createdAt)])
                else { return false }
                for (position, uri) in client.redirectURIs.enumerated() {
                    try await connection.execute(
                        "INSERT INTO financeClientRedirects (client, position, redirectURI) VALUES ($1, $2, $3)",
                        [id, .integer(Int64(position)), .text(uri)])
                }
                return true
            }
        }
    }

    package func client(_ id: ClientIdentifier) async throws(StorageError) -> (client: RegisteredClient, secretDigest: String?)? {
        guard StorableText.isExact(id.rawValue) else { return nil }
        return try await reportingStorageErrors {
            try await executor.read { connection in
                try await Self.clients(where: "WHERE c.client = $1", [.text(id.rawValue)], on: connection).first
            }
        }
    }

    package func clientCredential(_ id: String) async throws(StorageError) -> ClientCredentialRecord {
        // An id that cannot be stored matches nothing, after the same statement.
        let key = StorableText.isExact(id) ? id : ""
        return try await reportingStorageErrors {
            try await executor.read { connection in
                // Every column read the same way with or without a client: a digest of the same
                // length either way.
                let record = try await connection.fetchOne(
                    """
                    SELECT c.client IS NOT NULL, c.revokedAt IS NOT NULL, c.secretDigest IS NOT NULL, COALESCE(c.secretDigest, $2)
                    FROM (SELECT 1) AS one LEFT JOIN financeClients c ON c.client = $1
                    """, [.text(key), .text(String(repeating: "0", count: 64))]
                ) { row in
                    let digest = try row.text(3)
                    return ClientCredentialRecord(
                        exists: try row.bool(0), isRevoked: try row.bool(1), secretDigest: try row.bool(2) ? digest : nil)
                }
                guard let record else { throw StorageError(reason: "the store answered no row") }
                return record
            }
        }
    }

    package func registeredClients() async throws(StorageError) -> [RegisteredClient] {
        try await reportingStorageErrors {
            try await executor.read { connection in
                try await Self.clients(where: "", [], on: connection).map(\.client)
            }
        }
    }

    package func revokeClient(_ id: ClientIdentifier, at time: Date) async throws(StorageError) -> Bool {
        guard StorableText.isExact(id.rawValue) else { return false }
        return try await reportingStorageErrors {
            try await executor.write { connection in
                let client: [SQLValue] = [.text(id.rawValue)]
                let revoked = try await connection.returnsRow(
                    "UPDATE financeClients SET revokedAt = $2 WHERE client = $1 AND revokedAt IS NULL RETURNING 1",
                    client + [.instant(time)])
                try await connection.execute("DELETE FROM authorizationCodes WHERE client = $1", client)
                try await connection.execute("DELETE FROM clientTokens WHERE client = $1", client)
                return revoked
            }
        }
    }

    /// Clients and their secrets' digests, oldest first, each with its redirect URIs in order: one
    /// statement (one snapshot).
    private static func clients(
        where condition: String, _ arguments: [SQLValue], on connection: any SQLConnection
    ) async throws -> [(client: RegisteredClient, secretDigest: String?)] {
        let rows = try await connection.fetch(
            """
            SELECT c.client, c.name, c.secretDigest, c.createdAt, c.revokedAt, r.redirectURI
            FROM financeClients c LEFT JOIN financeClientRedirects r ON r.client = c.client \(condition)
            ORDER BY c.createdAt, c.client, r.position
            """, arguments, reusable: true
        ) { row in
            (
                id: try row.text(0), name: try row.text(1), secret: try row.optionalText(2), created: try row.integer(3),
                revoked: try row.optionalInteger(4), redirect: try row.optionalText(5)
            )
        }
        var clients: [(client: RegisteredClient, secretDigest: String?)] = []
        for row in rows {
            if clients.last?.client.id.rawValue != row.id {
                // Stored ids were valid when registered; one that is not is no client anyone can use.
                guard let id = ClientIdentifier(rawValue: row.id) else { continue }
                clients.append(
                    (
                        RegisteredClient(
                            id: id, name: row.name, redirectURIs: [], isPublic: row.secret == nil,
                            createdAt: Microseconds.date(row.created), revokedAt: row.revoked.map(Microseconds.date)),
                        row.secret
                    ))
            }
            if let redirect = row.redirect, clients.last?.client.id.rawValue == row.id {
                clients[clients.count - 1].client.redirectURIs.append(redirect)
            }
        }
        return clients
    }

    // MARK: - Codes

    package func insertCode(_ code: IssuedCode) async throws(StorageError) {
        guard StorableText.isExact(code.redirectURI), StorableText.isExact(code.codeChallenge) else {
            throw StorageError(reason: "a redirect URI or code challenge containing U+0000 cannot be stored")
        }
        try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.execute(
                    """
                    INSERT INTO authorizationCodes
                      (digest, purpose, client, redirectURI, codeChallenge, family, selection, createdAt, expiresAt, usedAt)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL)
                    """,
                    [
                        .text(code.digest), .text(code.purpose.rawValue), .text(code.client.rawValue), .text(code.redirectURI),
                        .text(code.codeChallenge), .text(code.family),
                        .text(code.purpose == .pick ? code.selection.map(\.uuidString).joined(separator: " ") : nil),
                        .instant(code.createdAt), .instant(code.expiresAt),
                    ])
            }
        }
    }

    package func redeemCode(
        digest: String, purpose: IssuedCode.Purpose, at time: Date
    ) async throws(StorageError) -> RedeemedCode? {
        let locking = executor.dialect.lockingRead
        return try await reportingStorageErrors {
            try await executor.write { connection in
                let key: [SQLValue] = [.text(digest), .text(purpose.rawValue)]
                guard
                    let found = try await connection.fetchOne(
                        """
                        SELECT client, redirectURI, codeChallenge, family, selection, createdAt, expiresAt, usedAt
                        FROM authorizationCodes WHERE digest = $1 AND purpose = $2 \(locking)
                        """, key,
                        { row in
                            (
                                client: try row.text(0), redirect: try row.text(1), challenge: try row.text(2),
                                family: try row.text(3), selection: try row.optionalText(4), created: try row.integer(5),
                                expires: try row.integer(6), used: try row.optionalInteger(7)
                            )
                        })
                else { return nil }
                // Used once: the row stays until it expires, so that a replay is recognized, but the
                // selection goes now.
                try await connection.execute(
                    "UPDATE authorizationCodes SET usedAt = coalesce(usedAt, $3), selection = NULL WHERE digest = $1 AND purpose = $2",
                    key + [.instant(time)])
                guard let client = ClientIdentifier(rawValue: found.client) else { return nil }
                let selection = (found.selection ?? "").split(separator: " ").compactMap { UUID(uuidString: String($0)) }
                return RedeemedCode(
                    code: IssuedCode(
                        digest: digest, purpose: purpose, client: client, redirectURI: found.redirect,
                        codeChallenge: found.challenge, family: found.family, selection: selection,
                        createdAt: Microseconds.date(found.created), expiresAt: Microseconds.date(found.expires)),
                    wasUsed: found.used != nil)
            }
        }
    }

    // MARK: - Tokens

    package func insertTokens(_ tokens: [IssuedToken]) async throws(StorageError) {
        try await reportingStorageErrors {
            try await executor.write { connection in try await Self.insert(tokens, on: connection) }
        }
    }

    package func accessToken(
        digest: String, at time: Date
    ) async throws(StorageError) -> (client: ClientIdentifier, expiresAt: Date)? {
        try await reportingStorageErrors {
            try await executor.read { connection in
                let row = try await connection.fetchOne(
                    "SELECT client, expiresAt FROM clientTokens WHERE digest = $1 AND kind = 'access' AND expiresAt > $2",
                    [.text(digest), .instant(time)]
                ) { row in (try row.text(0), try row.integer(1)) }
                guard let row, let client = ClientIdentifier(rawValue: row.0) else { return nil }
                return (client, Microseconds.date(row.1))
            }
        }
    }

    package func accessSnapshot(digest: String, at time: Date) async throws(StorageError) -> AccessSnapshot? {
        try await reportingStorageErrors {
            try await executor.read { connection in
                // Kind 9: the token; 8: the restriction; 0–2: the token's client's access (AccessPart).
                let parts = try await connection.fetch(
                    """
                    WITH token AS (
                      SELECT client, expiresAt FROM clientTokens WHERE digest = $1 AND kind = 'access' AND expiresAt > $2
                    )
                    SELECT client, 9, '', expiresAt FROM token
                    UNION ALL SELECT '', 8, '', since FROM restrictions WHERE dataType = $3
                    UNION ALL SELECT c.client, 0, c.status, CAST(NULL AS BIGINT) FROM clients c JOIN token ON c.client = token.client
                    UNION ALL SELECT a.client, 1, a.accountID, a.earliestDate FROM clientAccounts a JOIN token ON a.client = token.client
                    UNION ALL SELECT o.client, 2, o.orderTypeIdentifier, CAST(NULL AS BIGINT)
                      FROM clientOrderTypes o JOIN token ON o.client = token.client
                    ORDER BY 2, 3
                    """, [.text(digest), .instant(time), .text(DataType.financialData.rawValue)], AccessPart.init)
                guard let token = parts.last, token.kind == 9, let expires = token.date,
                    let client = ClientIdentifier(rawValue: token.client)
                else { return nil }
                var access = ClientAccess(client: client)
                var restrictedSince: Date?
                for part in parts {
                    switch part.kind {
                    case 9: break
                    case 8: restrictedSince = part.date.map(Microseconds.date)
                    default: part.apply(to: &access)
                    }
                }
                return AccessSnapshot(
                    client: client, expiresAt: Microseconds.date(expires), access: access, restrictedSince: restrictedSince)
            }
        }
    }

    package func rotateRefreshToken(
        digest: String, client: ClientIdentifier, replacements: [IssuedToken], at time: Date
    ) async throws(StorageError) -> RefreshOutcome {
        let locking = executor.dialect.lockingRead
        return try await reportingStorageErrors {
            try await executor.write { connection in
                guard
                    let found = try await connection.fetchOne(
                        "SELECT client, family, expiresAt, usedAt FROM clientTokens WHERE digest = $1 AND kind = 'refresh' \(locking)",
                        [.text(digest)],
                        { row in (try row.text(0), try row.text(1), try row.integer(2), try row.optionalInteger(3)) })
                else { return .invalid }
                let (owner, family, expires, used) = found
                if used != nil || owner != client.rawValue {
                    // Presented twice, or by another client: one holder is not the client. Neither
                    // keeps access.
                    try await connection.execute("DELETE FROM clientTokens WHERE family = $1", [.text(family)])
                    return .revoked
                }
                guard expires > Microseconds.since1970(time) else { return .invalid }
                try await connection.execute(
                    "UPDATE clientTokens SET usedAt = $2 WHERE digest = $1", [.text(digest), .instant(time)])
                try await Self.insert(
                    replacements.map { token in
                        var token = token
                        token.client = client
                        token.family = family
                        return token
                    }, on: connection)
                return .rotated
            }
        }
    }

    package func revokeTokens(family: String) async throws(StorageError) {
        try await reportingStorageErrors {
            try await executor.write { connection in
                try await connection.execute("DELETE FROM clientTokens WHERE family = $1", [.text(family)])
            }
        }
    }

    package func revokeToken(digest: String, client: ClientIdentifier) async throws(StorageError) -> Bool {
        let locking = executor.dialect.lockingRead
        return try await reportingStorageErrors {
            try await executor.write { connection in
                guard
                    let (kind, family) = try await connection.fetchOne(
                        "SELECT kind, family FROM clientTokens WHERE digest = $1 AND client = $2 \(locking)",
                        [.text(digest), .text(client.rawValue)], { row in (try row.text(0), try row.text(1)) })
                else { return false }
                if kind == IssuedToken.Kind.refresh.rawValue {
                    try await connection.execute("DELETE FROM clientTokens WHERE family = $1", [.text(family)])
                } else {
                    try await connection.execute("DELETE FROM clientTokens WHERE digest = $1", [.text(digest)])
                }
                return true
            }
        }
    }

    private static func insert(_ tokens: [IssuedToken], on connection: any SQLConnection) async throws {
        for token in tokens {
            try await connection.execute(
                """
                INSERT INTO clientTokens (digest, kind, client, family, createdAt, expiresAt, usedAt)
                VALUES ($1, $2, $3, $4, $5, $6, NULL)
                """,
                [
                    .text(token.digest), .text(token.kind.rawValue), .text(token.client.rawValue), .text(token.family),
                    .instant(token.createdAt), .instant(token.expiresAt),
                ])
        }
    }

    // MARK: - Housekeeping

    package func purgeExpired(at time: Date, policy: ConsentPolicy) async throws(StorageError) -> Int {
        let (lastSeenBefore, createdBefore) = policy.sessions.expiryCutoffs(at: time)
        return try await reportingStorageErrors {
            try await executor.write { connection in
                let now: SQLValue = .instant(time)
                var removed = try await connection.count("DELETE FROM clientTokens WHERE expiresAt <= $1 RETURNING 1", [now])
                // A redeemed code is kept while a token its exchange issued (or a rotation of it)
                // lives, so that a replay even long after it expired still ends them.
                removed += try await connection.count(
                    """
                    DELETE FROM authorizationCodes WHERE expiresAt <= $1 AND (usedAt IS NULL OR NOT EXISTS (
                        SELECT 1 FROM clientTokens t WHERE t.family = authorizationCodes.family AND t.expiresAt > $1))
                    RETURNING 1
                    """, [now])
                removed += try await connection.count(
                    "DELETE FROM ownerSessions WHERE lastSeenAt <= $1 OR createdAt <= $2 RETURNING 1",
                    [.instant(lastSeenBefore), .instant(createdBefore)])
                removed += try await connection.count(
                    "DELETE FROM signInAttempts WHERE attemptedAt < $1 RETURNING 1",
                    [.instant(time.addingTimeInterval(-policy.signIn.window))])
                removed += try await connection.count(
                    "DELETE FROM trustedDevices WHERE lastUsedAt < $1 RETURNING 1",
                    [.instant(time.addingTimeInterval(-policy.signIn.deviceLifetime))])
                return removed
            }
        }
    }
}
