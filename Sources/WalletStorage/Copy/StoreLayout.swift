import Foundation

/// What copying a store (`orders migrate`) carries from one backend to another: every table that
/// holds data, in an order that never references a row not yet copied, and the counters that are
/// not rows of their own. Tables a backend keeps for itself (migrations, planner statistics) are
/// not copied.
package enum StoreLayout {
    private static let versionColumns = [
        "orderTypeIdentifier", "orderIdentifier", "updatedAt", "updatedAtMicroseconds", "createdAt", "status",
        "merchantIdentifier", "merchantDisplayName", "teamIdentifier", "archiveSHA256", "archive", "orderJSON", "addedAt",
        "authenticationToken", "uploadedBy",
    ]

    package static let tables: [CopiedTable] = [
        CopiedTable("storeInfo", ["key", "value"]),
        CopiedTable("restrictions", ["dataType", "since"]),
        CopiedTable("clients", ["client", "status", "decidedAt"]),
        CopiedTable("clientAccounts", ["client", "accountID", "earliestDate"], keyLength: 2),
        CopiedTable("clientOrderTypes", ["client", "orderTypeIdentifier"], keyLength: 2),
        CopiedTable("historyCursors", ["id", "client", "stream", "createdAt"]),
        CopiedTable("apiKeys", ["identifier", "name", "secretDigest", "createdAt", "revokedAt"]),
        CopiedTable(
            "signingIdentities",
            [
                "orderTypeIdentifier", "teamIdentifier", "certificate", "intermediates", "certificateSHA256", "keyLocation",
                "notAfter", "addedAt",
            ]),
        // A staged identity is carried; the instances' reports are not (the new store's instances report anew).
        CopiedTable(
            "stagedSigningIdentities",
            [
                "orderTypeIdentifier", "teamIdentifier", "certificate", "intermediates", "certificateSHA256", "keyLocation",
                "notAfter", "addedAt",
            ]),
        // The owner's password and the registered clients with their tokens; sessions, codes,
        // sign-in attempts and trusted browsers are not carried (the owner signs in again).
        CopiedTable("ownerCredential", ["id", "passwordHash", "changedAt"]),
        CopiedTable("financeClients", ["client", "name", "secretDigest", "createdAt", "revokedAt"]),
        CopiedTable("financeClientRedirects", ["client", "position", "redirectURI"], keyLength: 2),
        CopiedTable("clientTokens", ["digest", "kind", "client", "family", "createdAt", "expiresAt", "usedAt"]),
        CopiedTable("orders", ["id"] + versionColumns + ["changeSequence"]),
        CopiedTable(
            "requestReceipts", ["caller", "idempotencyKey", "requestDigest", "status", "answer", "createdAt"], keyLength: 2),
        CopiedTable("orderVersions", ["id"] + versionColumns + ["replacedAt"]),
        CopiedTable(
            "orderRegistrations",
            ["deviceIdentifier", "orderTypeIdentifier", "orderIdentifier", "pushToken", "registeredAt", "updatedAt"],
            keyLength: 3),
        CopiedTable(
            "pushOutbox",
            [
                "id", "pushToken", "orderTypeIdentifier", "orderIdentifier", "deviceIdentifier", "enqueuedAt", "attempts",
                "nextAttemptAt", "lastError", "coalesced",
            ]),
        CopiedTable(
            "pushFailures",
            [
                "id", "orderTypeIdentifier", "orderIdentifier", "deviceIdentifier", "pushTokenSuffix", "enqueuedAt", "failedAt",
                "attempts", "reason",
            ]),
        // Tracking: the endpoints with their secrets, the index, the events kept and which versions
        // they made (the dedupe of event ids survives the copy).
        CopiedTable("trackingEndpoints", ["identifier", "provider", "orderTypeIdentifiers", "secrets", "createdAt"]),
        CopiedTable(
            "trackingNumbers", ["trackingKey", "orderTypeIdentifier", "orderIdentifier", "changeSequence"], keyLength: 3),
        CopiedTable(
            "trackingEvents",
            [
                "endpoint", "eventID", "provider", "trackingKey", "orderTypeIdentifier", "occurredAt", "receivedAt", "event",
                "outcome", "versions", "checkedThrough", "checkedAt",
            ], keyLength: 2),
        CopiedTable(
            "trackingApplications",
            [
                "orderTypeIdentifier", "orderIdentifier", "endpoint", "eventID", "provider", "trackingKey", "occurredAt",
                "receivedAt", "archiveSHA256",
            ], keyLength: 4),
        CopiedTable(
            "accounts", ["id", "kind", "displayNameKey", "institutionNameKey", "currencyCode", "openingDate", "record"]),
        CopiedTable("balances", ["id", "accountID", "availableAsOf", "bookedAsOf", "currencyCode", "record"]),
        CopiedTable(
            "transactions", FinanceRows.transactionColumns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }),
        CopiedTable("financeChanges", ["sequence", "stream", "entityID", "kind", "client", "recordedAt", "earliestDate"]),
        // Background delivery: the endpoints with their secrets, each type's place in the change
        // log (whose numbers the copy keeps), and the deliveries decided and not yet sent.
        CopiedTable(
            "deliveryEndpoints",
            [
                "id", "client", "url", "secret", "createdAt", "disabledAt", "disabledReason", "lastDeliveryID", "lastDeliveredAt",
                "lastDeliveredTypes", "lastFailureID", "lastFailureAt", "lastFailure",
            ]),
        CopiedTable(
            "deliveryTypes",
            ["endpoint", "type", "frequency", "scannedThrough", "changed", "owed", "lastPlannedAt", "notBefore"], keyLength: 2),
        CopiedTable(
            "deliveryOutbox", ["deliveryID", "endpoint", "types", "occurredAt", "nextAttemptAt", "attempts", "lastError"]),
    ]
}

/// The counters a copy carries besides rows: the next numbers must never repeat one the source
/// handed out, or history tokens and change tags issued before the copy would be wrong after it.
package struct StoreCounters: Sendable, Hashable {
    /// The last change tag handed out (`orderChangeSequence`).
    package var orderChangeSequence: Int64
    /// The last finance change number handed out, compacted or not.
    package var financeChangeSequence: Int64
    /// Change records up to this number were compacted away.
    package var financeCompactedThrough: Int64

    package init(orderChangeSequence: Int64, financeChangeSequence: Int64, financeCompactedThrough: Int64) {
        self.orderChangeSequence = orderChangeSequence
        self.financeChangeSequence = financeChangeSequence
        self.financeCompactedThrough = financeCompactedThrough
    }
}

/// A store that can be copied from: one consistent snapshot, read a page at a time.
package protocol StoreSnapshot: Sendable {
    /// Up to `limit` rows of `table` in key order, after the row whose key is `after` (nil: from
    /// the first), each with ``CopiedTable/columns`` in order.
    func rows(of table: CopiedTable, after key: [SQLValue]?, limit: Int) async throws -> [[SQLValue]]
    func count(of table: CopiedTable) async throws -> Int
    func counters() async throws -> StoreCounters
}
