/// The service's limits, in one value.
public struct ServiceLimits: Sendable, Hashable {
    /// The largest archive `PUT /api/v1/orders` accepts (Wallet's own archive limit is smaller).
    public var archiveBodySize: Int
    /// The largest body of any other request (registrations, logs).
    public var bodySize: Int
    /// How many log lines of one `POST /v1/log` are written; the rest are counted.
    public var logEntries: Int
    /// How much of one device log line is written.
    public var logEntryLength: Int
    /// The most orders one page of `GET /api/v1/orders` holds.
    public var pageSize: Int
    /// How many bytes of signed archives are kept in memory, ready to send to devices.
    public var archiveCacheSize: Int

    public init(
        archiveBodySize: Int = 10 << 20, bodySize: Int = 64 << 10, logEntries: Int = 100, logEntryLength: Int = 1024,
        pageSize: Int = 500, archiveCacheSize: Int = 64 << 20
    ) {
        self.archiveBodySize = archiveBodySize
        self.bodySize = bodySize
        self.logEntries = logEntries
        self.logEntryLength = logEntryLength
        self.pageSize = pageSize
        self.archiveCacheSize = archiveCacheSize
    }

    public static let `default` = ServiceLimits()
}
