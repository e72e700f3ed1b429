import Foundation

/// The rate limiters of one service, shared by its routes.
package struct RateLimits: Sendable {
    package let deviceLog: RateLimiter
    package let registrations: RateLimiter
    package let tokens: RateLimiter
    package let historyStreams: StreamLimiter

    package init(limits: ServiceLimits) {
        deviceLog = RateLimiter(
            perClient: limits.deviceLogRate, total: limits.deviceLogTotalRate, maximumClients: limits.rateLimitedClients)
        registrations = RateLimiter(
            perClient: limits.registrationRate, total: nil, maximumClients: limits.rateLimitedClients)
        tokens = RateLimiter(perClient: limits.tokenRequestRate, total: nil, maximumClients: limits.rateLimitedClients)
        historyStreams = StreamLimiter(perClient: limits.historyStreamsPerClient, total: limits.historyStreams)
    }
}
