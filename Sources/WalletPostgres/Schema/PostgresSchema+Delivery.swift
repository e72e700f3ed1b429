extension PostgresSchema {
    /// SQLite's `finance.v4`: background delivery — clients' endpoints and their signing
    /// secrets, each data type's place in the change log and schedule, the outbox, and the row
    /// two deciders take turns on.
    static let delivery = PostgresMigration(
        version: 5, name: "finance.v4",
        statements: [
            """
            CREATE TABLE deliveryEndpoints (
                id TEXT COLLATE "C" PRIMARY KEY, client TEXT COLLATE "C" NOT NULL, url TEXT COLLATE "C" NOT NULL,
                secret TEXT COLLATE "C" NOT NULL, createdAt BIGINT NOT NULL, disabledAt BIGINT,
                disabledReason TEXT COLLATE "C", lastDeliveryID TEXT COLLATE "C", lastDeliveredAt BIGINT,
                lastDeliveredTypes TEXT COLLATE "C", lastFailureID TEXT COLLATE "C", lastFailureAt BIGINT,
                lastFailure TEXT COLLATE "C", UNIQUE (client, url))
            """,
            """
            CREATE TABLE deliveryTypes (
                endpoint TEXT COLLATE "C" NOT NULL,
                type TEXT COLLATE "C" NOT NULL CHECK (type IN ('accounts', 'accountBalances', 'transactions')),
                frequency TEXT COLLATE "C" NOT NULL CHECK (frequency IN ('hourly', 'daily', 'weekly')),
                scannedThrough BIGINT NOT NULL, changed BIGINT NOT NULL DEFAULT 0, owed BIGINT NOT NULL DEFAULT 0,
                lastPlannedAt BIGINT, notBefore BIGINT, PRIMARY KEY (endpoint, type))
            """,
            """
            CREATE TABLE deliveryOutbox (
                deliveryID TEXT COLLATE "C" PRIMARY KEY, endpoint TEXT COLLATE "C" NOT NULL,
                types TEXT COLLATE "C" NOT NULL, occurredAt BIGINT NOT NULL, nextAttemptAt BIGINT NOT NULL,
                attempts BIGINT NOT NULL DEFAULT 0, lastError TEXT COLLATE "C")
            """,
            "CREATE INDEX deliveryOutbox_on_nextAttemptAt ON deliveryOutbox (nextAttemptAt)",
            "CREATE INDEX deliveryOutbox_on_endpoint ON deliveryOutbox (endpoint)",
            "CREATE TABLE deliveryPlanner (id BIGINT PRIMARY KEY CHECK (id = 1))",
            "INSERT INTO deliveryPlanner (id) VALUES (1)",
        ])
}
