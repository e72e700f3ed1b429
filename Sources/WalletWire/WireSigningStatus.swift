import Foundation
import OrderStorage

/// `orders signing status --json`: one order type's active and staged identity, and what each
/// instance reported of them.
public struct WireSigningStatus: Codable, Sendable, Hashable {
    public struct Identity: Codable, Sendable, Hashable {
        public var certificateSHA256: String
        public var revision: String
        public var notAfter: Date
        public var key: String
        public var instances: [Instance]
    }

    public struct Instance: Codable, Sendable, Hashable {
        public var instance: String
        /// Heard from within the live window (90 s).
        public var live: Bool
        public var loaded: Bool
        @Nullable public var reason: String?
        public var reportedAt: Date
    }

    public var orderTypeIdentifier: String
    @Nullable public var active: Identity?
    @Nullable public var staged: Identity?

    /// - Parameters: an order type's `active` and `staged` identity and the `reports` on them.
    public init(
        orderTypeIdentifier: String, active: StoredSigningIdentity?, staged: StoredSigningIdentity?,
        reports: [SigningIdentityReport], now: Date, liveWithin: TimeInterval
    ) {
        self.orderTypeIdentifier = orderTypeIdentifier
        func identity(_ row: StoredSigningIdentity?) -> Identity? {
            row.map { row in
                let revision = row.revision
                return Identity(
                    certificateSHA256: row.certificateSHA256, revision: revision, notAfter: row.notAfter,
                    key: row.key.summary,
                    instances: reports.filter { $0.revision == revision }.map { report in
                        Instance(
                            instance: report.instance, live: now.timeIntervalSince(report.reportedAt) <= liveWithin,
                            loaded: report.loaded, reason: report.reason, reportedAt: report.reportedAt)
                    })
            }
        }
        self.active = identity(active)
        self.staged = identity(staged)
    }
}
