import Foundation
import GRDB
import WalletCore

/// The shared core's tables, as GRDB migrations with the `core.` prefix.
enum CoreTables {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("core.v1") { db in
            // Times are microseconds since 1970.
            try db.execute(
                sql: """
                    CREATE TABLE storeInfo (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE restrictions (dataType TEXT PRIMARY KEY, since INTEGER NOT NULL);
                    CREATE TABLE clients (
                        client TEXT PRIMARY KEY,
                        status TEXT NOT NULL CHECK (status IN ('authorized', 'denied', 'notDetermined')),
                        decidedAt INTEGER
                    );
                    CREATE TABLE clientAccounts (
                        client TEXT NOT NULL,
                        accountID TEXT NOT NULL,
                        earliestDate INTEGER,
                        PRIMARY KEY (client, accountID)
                    );
                    CREATE TABLE clientOrderTypes (
                        client TEXT NOT NULL,
                        orderTypeIdentifier TEXT NOT NULL,
                        PRIMARY KEY (client, orderTypeIdentifier)
                    );
                    CREATE TABLE historyCursors (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        client TEXT NOT NULL,
                        stream TEXT NOT NULL,
                        createdAt INTEGER NOT NULL
                    );
                    CREATE INDEX historyCursors_on_client ON historyCursors (client);
                    """)
            try db.execute(sql: "INSERT INTO storeInfo (key, value) VALUES ('generation', ?)", arguments: [UUID().uuidString])
        }

        // Merchant API keys (issue 9): the secret's SHA-256 only; the key's order types are its
        // client's `clientOrderTypes` rows (client `apikey.<identifier>`).
        migrator.registerMigration("core.v2") { db in
            try db.execute(
                sql: """
                    CREATE TABLE apiKeys (
                        identifier TEXT PRIMARY KEY,
                        name TEXT NOT NULL,
                        secretDigest TEXT NOT NULL,
                        createdAt INTEGER NOT NULL,
                        revokedAt INTEGER
                    ) WITHOUT ROWID;
                    """)
        }

        // The data owner's consent on the network (issue 25): the owner's password hash and
        // sessions, failed sign-ins, registered clients, codes and tokens — secrets as SHA-256
        // digests only. Times are microseconds since 1970.
        migrator.registerMigration("core.v3") { db in
            try db.execute(
                sql: """
                    CREATE TABLE ownerCredential (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        passwordHash TEXT NOT NULL,
                        changedAt INTEGER NOT NULL
                    );
                    CREATE TABLE ownerSessions (
                        digest TEXT PRIMARY KEY,
                        formToken TEXT NOT NULL,
                        createdAt INTEGER NOT NULL,
                        lastSeenAt INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    CREATE TABLE signInFailures (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        address TEXT NOT NULL,
                        failedAt INTEGER NOT NULL
                    );
                    CREATE INDEX signInFailures_on_address ON signInFailures (address, failedAt);
                    CREATE INDEX signInFailures_on_failedAt ON signInFailures (failedAt);
                    CREATE TABLE financeClients (
                        client TEXT PRIMARY KEY,
                        name TEXT NOT NULL,
                        secretDigest TEXT,
                        createdAt INTEGER NOT NULL,
                        revokedAt INTEGER
                    ) WITHOUT ROWID;
                    CREATE TABLE financeClientRedirects (
                        client TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        redirectURI TEXT NOT NULL,
                        PRIMARY KEY (client, position)
                    ) WITHOUT ROWID;
                    CREATE TABLE authorizationCodes (
                        digest TEXT PRIMARY KEY,
                        purpose TEXT NOT NULL CHECK (purpose IN ('authorization', 'pick')),
                        client TEXT NOT NULL,
                        redirectURI TEXT NOT NULL,
                        codeChallenge TEXT NOT NULL,
                        family TEXT NOT NULL,
                        selection TEXT,
                        createdAt INTEGER NOT NULL,
                        expiresAt INTEGER NOT NULL,
                        usedAt INTEGER
                    ) WITHOUT ROWID;
                    CREATE INDEX authorizationCodes_on_client ON authorizationCodes (client);
                    CREATE INDEX authorizationCodes_on_expiresAt ON authorizationCodes (expiresAt);
                    CREATE TABLE clientTokens (
                        digest TEXT PRIMARY KEY,
                        kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
                        client TEXT NOT NULL,
                        family TEXT NOT NULL,
                        createdAt INTEGER NOT NULL,
                        expiresAt INTEGER NOT NULL,
                        usedAt INTEGER
                    ) WITHOUT ROWID;
                    CREATE INDEX clientTokens_on_client ON clientTokens (client);
                    CREATE INDEX clientTokens_on_family ON clientTokens (family);
                    CREATE INDEX clientTokens_on_expiresAt ON clientTokens (expiresAt);
                    """)
        }

        // A number every write of a client's status, accounts or order types increases in its own
        // unit of work (issue 26), so a reader that keeps access in memory knows when to read again.
        migrator.registerMigration("core.v4") { db in
            try db.execute(
                sql: """
                    CREATE TABLE accessVersion (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
                    INSERT INTO accessVersion (id, version) VALUES (1, 0);
                    """)
        }

        // Sign-in attempts counted when admitted, per address, network and trusted device, and the
        // trusted devices (issue 40): failures counted after the check could be raced, and a
        // total past which everyone was refused let strangers keep the owner out.
        migrator.registerMigration("core.v5") { db in
            try db.execute(
                sql: """
                    DROP TABLE signInFailures;
                    CREATE TABLE signInAttempts (
                        id INTEGER PRIMARY KEY,
                        address TEXT NOT NULL,
                        network TEXT NOT NULL,
                        device TEXT,
                        attemptedAt INTEGER NOT NULL
                    );
                    CREATE INDEX signInAttempts_on_address ON signInAttempts (address, attemptedAt);
                    CREATE INDEX signInAttempts_on_network ON signInAttempts (network, attemptedAt);
                    CREATE INDEX signInAttempts_on_device ON signInAttempts (device, attemptedAt);
                    CREATE INDEX signInAttempts_on_attemptedAt ON signInAttempts (attemptedAt);
                    CREATE TABLE signInGate (id INTEGER PRIMARY KEY CHECK (id = 1));
                    INSERT INTO signInGate (id) VALUES (1);
                    CREATE TABLE trustedDevices (
                        digest TEXT PRIMARY KEY,
                        createdAt INTEGER NOT NULL,
                        lastUsedAt INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
    }
}
