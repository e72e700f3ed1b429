/// The service's limits on what a client controls, in one value. docs/serve.md ("Limits") lists
/// each with its default and the reason for it.
public struct ServiceLimits: Sendable, Hashable {
    /// The largest archive `PUT /api/v1/orders` accepts (Wallet's own archive limit is smaller).
    public var archiveBodySize: Int
    /// The largest body of any other request (registrations, logs).
    public var bodySize: Int
    /// The most bytes of device log entries one `POST /v1/log` writes: its entries go into one
    /// log line, cut here.
    public var deviceLogLineLength: Int
    /// How many `POST /v1/log` requests of one client address are written; the rest are answered
    /// `200` unwritten (Wallet does not retry) and counted in `orders_rate_limited_total`.
    public var deviceLogRate: Rate
    /// The same, for all clients together: the most device log lines the service writes.
    public var deviceLogTotalRate: Rate
    /// How many registrations (`POST` and `DELETE`) one client address may make; the rest are
    /// answered `429` with `Retry-After`.
    public var registrationRate: Rate
    /// How many client addresses the rate limiters remember at once.
    public var rateLimitedClients: Int
    /// The longest a client may take to send one request, from its first byte to the end of its
    /// body; the connection is closed when it is not complete by then.
    public var requestReadTimeout: Duration
    /// The slowest a request may arrive: fewer bytes than this per second over a
    /// ``bodyRateWindow`` while a request is being read closes the connection.
    public var minimumRequestRate: Int
    /// The window over which ``minimumRequestRate`` is measured.
    public var bodyRateWindow: Duration
    /// The most orders one page of `GET /api/v1/orders` holds.
    public var pageSize: Int
    /// How many bytes of signed archives are kept in memory, ready to send to devices (and to
    /// Add to Apple Wallet); the customer pages' rendered orders get a budget of the same size.
    public var archiveCacheSize: Int
    /// How many token requests (`POST /finance/token`, picked transactions) one client address
    /// may make; the rest are answered `429`.
    public var tokenRequestRate: Rate
    /// How many history streams (Server-Sent Events) one financial-data client may hold open, and
    /// how many all clients together; more are answered `429`.
    public var historyStreamsPerClient: Int
    public var historyStreams: Int
    /// How many webhook bodies one tracking endpoint (a provider's, or one merchant API key's
    /// generic events) takes; the rest are answered `429` with `Retry-After`, which the providers
    /// retry. Counted before the body is read.
    public var trackingRate: Rate

    public init(
        archiveBodySize: Int = 10 << 20, bodySize: Int = 64 << 10, deviceLogLineLength: Int = 2048,
        deviceLogRate: Rate = Rate(burst: 5, perSecond: 0.1), deviceLogTotalRate: Rate = Rate(burst: 50, perSecond: 5),
        registrationRate: Rate = Rate(burst: 60, perSecond: 1), rateLimitedClients: Int = 10_000,
        requestReadTimeout: Duration = .seconds(60), minimumRequestRate: Int = 1024, bodyRateWindow: Duration = .seconds(10),
        pageSize: Int = 500, archiveCacheSize: Int = 64 << 20, tokenRequestRate: Rate = Rate(burst: 30, perSecond: 1),
        historyStreamsPerClient: Int = 4, historyStreams: Int = 256, trackingRate: Rate = Rate(burst: 100, perSecond: 20)
    ) {
        self.archiveBodySize = archiveBodySize
        self.bodySize = bodySize
        self.deviceLogLineLength = deviceLogLineLength
        self.deviceLogRate = deviceLogRate
        self.deviceLogTotalRate = deviceLogTotalRate
        self.registrationRate = registrationRate
        self.rateLimitedClients = rateLimitedClients
        self.requestReadTimeout = requestReadTimeout
        self.minimumRequestRate = minimumRequestRate
        self.bodyRateWindow = bodyRateWindow
        self.pageSize = pageSize
        self.archiveCacheSize = archiveCacheSize
        self.tokenRequestRate = tokenRequestRate
        self.historyStreamsPerClient = historyStreamsPerClient
        self.historyStreams = historyStreams
        self.trackingRate = trackingRate
    }

    public static let `default` = ServiceLimits()
}
