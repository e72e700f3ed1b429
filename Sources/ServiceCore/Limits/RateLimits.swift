import Foundation

/// The rate limiters of one service, shared by its routes.
package struct RateLimits: Sendable {
    package let deviceLog: RateLimiter
    package let registrations: RateLimiter
    package let tokens: RateLimiter
    package let historyStreams: StreamLimiter
    /// Keyed by tracking endpoint, not by address: a provider posts from many.
    package let tracking: RateLimiter

    package init(limits: ServiceLimits) {
        deviceLog = RateLimiter(
            perClient: limits.deviceLogRate, total: limits.deviceLogTotalRate, maximumClients: limits.rateLimitedClients)
        registrations = RateLimiter(
            perClient: limits.registrationRate, total: nil, maximumClients: limits.rateLimitedClients)
        tokens = RateLimiter(perClient: limits.tokenRequestRate, total: nil, maximumClients: limits.rateLimitedClients)
        tracking = RateLimiter(perClient: limits.trackingRate, total: nil, maximumClients: limits.rateLimitedClients)
        historyStreams = StreamLimiter(perClient: limits.historyStreamsPerClient, total: limits.historyStreams)
    }
}
