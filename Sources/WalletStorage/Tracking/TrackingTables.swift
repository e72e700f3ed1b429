/// The tracking tables (issue 55), in the SQL both engines read — SQLite's `orders.v9`,
/// PostgreSQL's migration 14 — with each engine's spelling of a text and a bytes column
/// (PostgreSQL's text sorts by its bytes, as SQLite's does).
///
/// - `trackingEndpoints`: the providers' webhooks and their secrets (newline-separated; a secret
///   holds no line break).
/// - `trackingNumbers`: the index every save keeps — each parcel the current version of an
///   order names, with the change number of the version that last wrote the entry.
/// - `trackingEvents`: what each endpoint received, once per event id, and what it did; an
///   unmatched event is looked at again only when an entry for its parcel has a change number
///   past `checkedThrough` (no clock compared across instances), an event a stopped service left
///   half done once `checkedAt` is a minute old.
/// - `trackingApplications`: which event made which version, written in the version's
///   transaction; its key makes an event apply once per order.
package enum TrackingTables {
    package static func migration(text: String, bytes: String) -> [String] {
        [
            """
            CREATE TABLE trackingEndpoints (
                identifier \(text) PRIMARY KEY NOT NULL,
                provider \(text) NOT NULL,
                orderTypeIdentifiers \(text) NOT NULL,
                secrets \(text) NOT NULL,
                createdAt BIGINT NOT NULL)
            """,
            """
            CREATE TABLE trackingNumbers (
                trackingKey \(text) NOT NULL,
                orderTypeIdentifier \(text) NOT NULL,
                orderIdentifier \(text) NOT NULL,
                changeSequence BIGINT NOT NULL,
                PRIMARY KEY (trackingKey, orderTypeIdentifier, orderIdentifier))
            """,
            "CREATE INDEX trackingNumbers_on_order ON trackingNumbers (orderTypeIdentifier, orderIdentifier)",
            """
            CREATE TABLE trackingEvents (
                endpoint \(text) NOT NULL,
                eventID \(text) NOT NULL,
                provider \(text) NOT NULL,
                trackingKey \(text) NOT NULL,
                orderTypeIdentifier \(text),
                occurredAt BIGINT NOT NULL,
                receivedAt BIGINT NOT NULL,
                event \(bytes) NOT NULL,
                outcome \(text) NOT NULL,
                versions INTEGER NOT NULL DEFAULT 0,
                checkedThrough BIGINT NOT NULL DEFAULT 0,
                checkedAt BIGINT NOT NULL,
                PRIMARY KEY (endpoint, eventID))
            """,
            "CREATE INDEX trackingEvents_on_endpoint_receivedAt ON trackingEvents (endpoint, receivedAt)",
            "CREATE INDEX trackingEvents_on_outcome_trackingKey ON trackingEvents (outcome, trackingKey)",
            "CREATE INDEX trackingEvents_on_receivedAt ON trackingEvents (receivedAt)",
            """
            CREATE TABLE trackingApplications (
                orderTypeIdentifier \(text) NOT NULL,
                orderIdentifier \(text) NOT NULL,
                endpoint \(text) NOT NULL,
                eventID \(text) NOT NULL,
                provider \(text) NOT NULL,
                trackingKey \(text) NOT NULL,
                occurredAt BIGINT NOT NULL,
                receivedAt BIGINT NOT NULL,
                archiveSHA256 \(text) NOT NULL,
                PRIMARY KEY (orderTypeIdentifier, orderIdentifier, endpoint, eventID))
            """,
        ]
    }
}
