import Foundation
import GRDB
import WalletCore
import WalletPrimitives

/// The financial-data tables, as GRDB migrations with the `finance.` prefix.
///
/// Instants are integer microseconds (``Microseconds``); amounts are exact decimal text.
/// Transactions are fully columnar, so queries never decode JSON; accounts and balances (small
/// tables) keep their record as JSON beside the columns queries use. `…Key` columns hold
/// NFC-normalized text: Swift compares strings by canonical equivalence, so SQL must compare the
/// normalized form to agree with it.
enum FinanceTables {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("finance.v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE accounts (
                        id TEXT PRIMARY KEY,
                        kind TEXT NOT NULL,
                        displayNameKey TEXT NOT NULL,
                        institutionNameKey TEXT NOT NULL,
                        currencyCode TEXT NOT NULL,
                        openingDate INTEGER,
                        record BLOB NOT NULL
                    );

                    CREATE TABLE balances (
                        id TEXT PRIMARY KEY,
                        accountID TEXT NOT NULL,
                        availableAsOf INTEGER,
                        bookedAsOf INTEGER,
                        currencyCode TEXT NOT NULL,
                        record BLOB NOT NULL
                    );
                    CREATE INDEX balances_on_account ON balances (accountID);

                    CREATE TABLE transactions (
                        id TEXT PRIMARY KEY,
                        accountID TEXT NOT NULL,
                        amount TEXT NOT NULL,
                        currencyCode TEXT NOT NULL,
                        foreignAmount TEXT,
                        foreignCurrencyCode TEXT,
                        foreignCurrencyExchangeRate TEXT,
                        creditDebitIndicator INTEGER NOT NULL,
                        transactionDescription TEXT NOT NULL,
                        originalTransactionDescription TEXT NOT NULL,
                        merchantCategoryCode INTEGER,
                        merchantName TEXT,
                        merchantNameKey TEXT,
                        transactionType INTEGER NOT NULL,
                        status INTEGER NOT NULL,
                        transactionDate INTEGER NOT NULL,
                        postedDate INTEGER,
                        effectiveDate INTEGER NOT NULL
                    );
                    CREATE INDEX transactions_on_account_effectiveDate ON transactions (accountID, effectiveDate);
                    CREATE INDEX transactions_on_account_transactionDate ON transactions (accountID, transactionDate);
                    CREATE INDEX transactions_on_effectiveDate ON transactions (effectiveDate);
                    CREATE INDEX transactions_on_status ON transactions (status, effectiveDate);
                    CREATE INDEX transactions_on_type ON transactions (transactionType, effectiveDate);
                    CREATE INDEX transactions_on_merchantCategoryCode ON transactions (merchantCategoryCode, effectiveDate);

                    -- The change log history streams read. `client` is set for changes only one
                    -- client sees (an account shared with or revoked from it).
                    CREATE TABLE financeChanges (
                        sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                        stream TEXT NOT NULL,
                        entityID TEXT NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('insert', 'update', 'delete')),
                        client TEXT,
                        recordedAt INTEGER NOT NULL
                    );
                    CREATE INDEX financeChanges_on_stream ON financeChanges (stream, sequence);
                    CREATE INDEX financeChanges_on_recordedAt ON financeChanges (recordedAt);

                    -- The highest sequence compaction removed: tokens below it are invalid.
                    CREATE TABLE financeHistoryHorizon (id INTEGER PRIMARY KEY CHECK (id = 1), compactedThrough INTEGER NOT NULL);
                    INSERT INTO financeHistoryHorizon (id, compactedThrough) VALUES (1, 0);
                    """)
        }
        // Indexes measured with Benchmarks/FinanceQueries:
        // - History catch-up pages through one account's records in id order (`accountID = ? AND
        //   id > ? ORDER BY id LIMIT ?`). With only the date indexes, SQLite sorted the whole
        //   account for every page: 27 s to catch up on 76,000 transactions, 0.3 s with these.
        // - Code ported from FinanceKit sorts by transactionDate across accounts; without an index
        //   on it, "newest 100" sorted every matching row.
        // - Planner statistics (see PlannerStatistics), analyzed now for stores written by v1.
        migrator.registerMigration("finance.v2") { db in
            try db.execute(
                sql: """
                    CREATE INDEX transactions_on_account_id ON transactions (accountID, id);
                    CREATE INDEX transactions_on_transactionDate ON transactions (transactionDate);
                    DROP INDEX balances_on_account;
                    CREATE INDEX balances_on_account_id ON balances (accountID, id);
                    CREATE TABLE financeStatistics (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        analyzedRows INTEGER NOT NULL,
                        changesSince INTEGER NOT NULL
                    );
                    INSERT INTO financeStatistics (id, analyzedRows, changesSince) VALUES (1, 0, 0);
                    """)
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM transactions") ?? 0 >= PlannerStatistics.minimumChanges {
                try PlannerStatistics.analyze(db)
            }
        }
        // A merchant category across accounts, newest transactionDate first (issue 11): with the
        // category index ending in effectiveDate, SQLite read every hotel transaction and sorted
        // them (288 ms at 1,000,000 rows); this one reads the first 50 in order. Its write cost is
        // in Benchmarks/README.md.
        migrator.registerMigration("finance.v3") { db in
            try db.execute(
                sql: """
                    CREATE INDEX transactions_on_merchantCategoryCode_transactionDate
                        ON transactions (merchantCategoryCode, transactionDate);
                    """)
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM transactions") ?? 0 >= PlannerStatistics.minimumChanges {
                try PlannerStatistics.analyze(db)
            }
        }
        // Background delivery (issue 26): clients' endpoints with their signing secrets (kept
        // as they are: a signature needs the secret itself), each data type's place in the
        // change log and its schedule, the outbox of decided deliveries, and the row two
        // deciders take turns on. Times are microseconds since 1970; flags 0 or 1.
        migrator.registerMigration("finance.v4") { db in
            try db.execute(
                sql: """
                    CREATE TABLE deliveryEndpoints (
                        id TEXT PRIMARY KEY,
                        client TEXT NOT NULL,
                        url TEXT NOT NULL,
                        secret TEXT NOT NULL,
                        createdAt INTEGER NOT NULL,
                        disabledAt INTEGER,
                        disabledReason TEXT,
                        lastDeliveryID TEXT,
                        lastDeliveredAt INTEGER,
                        lastDeliveredTypes TEXT,
                        lastFailureID TEXT,
                        lastFailureAt INTEGER,
                        lastFailure TEXT,
                        UNIQUE (client, url)
                    ) WITHOUT ROWID;
                    CREATE TABLE deliveryTypes (
                        endpoint TEXT NOT NULL,
                        type TEXT NOT NULL CHECK (type IN ('accounts', 'accountBalances', 'transactions')),
                        frequency TEXT NOT NULL CHECK (frequency IN ('hourly', 'daily', 'weekly')),
                        scannedThrough INTEGER NOT NULL,
                        changed INTEGER NOT NULL DEFAULT 0,
                        owed INTEGER NOT NULL DEFAULT 0,
                        lastPlannedAt INTEGER,
                        notBefore INTEGER,
                        PRIMARY KEY (endpoint, type)
                    ) WITHOUT ROWID;
                    CREATE TABLE deliveryOutbox (
                        deliveryID TEXT PRIMARY KEY,
                        endpoint TEXT NOT NULL,
                        types TEXT NOT NULL,
                        occurredAt INTEGER NOT NULL,
                        nextAttemptAt INTEGER NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        lastError TEXT
                    ) WITHOUT ROWID;
                    CREATE INDEX deliveryOutbox_on_nextAttemptAt ON deliveryOutbox (nextAttemptAt);
                    CREATE INDEX deliveryOutbox_on_endpoint ON deliveryOutbox (endpoint);
                    CREATE TABLE deliveryPlanner (id INTEGER PRIMARY KEY CHECK (id = 1));
                    INSERT INTO deliveryPlanner (id) VALUES (1);
                    """)
        }

        // A deletion remembers the earliest of the deleted record's dates a grant applies to, so
        // that a client's history (and its deliveries) leave out deletions it was never to see
        // (issue 40).
        migrator.registerMigration("finance.v5") { db in
            try db.execute(sql: "ALTER TABLE financeChanges ADD COLUMN earliestDate INTEGER")
        }
    }
}
