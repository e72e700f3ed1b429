import Foundation

/// A push still in the outbox: when it is tried next, and why its last attempt failed.
public struct WaitingPush: Sendable, Hashable {
    public var push: PendingPush
    /// The next attempt (or, while a drainer holds the push, the end of its lease).
    public var nextAttemptAt: Date
    /// APNs' reason (or the connection's error) for the last failed attempt; nil before the first.
    public var lastError: String?

    public init(push: PendingPush, nextAttemptAt: Date, lastError: String?) {
        self.push = push
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
    }
}

/// A push that failed for good — APNs said the token is gone or refused the push, or it was
/// retried for too long — kept for operators with the reason. Only the push token's last
/// characters are kept: the token addresses a device and is not shown.
public struct FailedPush: Sendable, Hashable {
    public var orderTypeIdentifier: String
    public var orderIdentifier: String
    public var deviceIdentifier: String
    /// The push token's last ``PushOutboxRecords/tokenSuffixLength`` characters.
    public var pushTokenSuffix: String
    public var enqueuedAt: Date
    public var failedAt: Date
    /// Attempts made, the last included.
    public var attempts: Int
    public var reason: String

    public init(
        orderTypeIdentifier: String, orderIdentifier: String, deviceIdentifier: String, pushTokenSuffix: String,
        enqueuedAt: Date, failedAt: Date, attempts: Int, reason: String
    ) {
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.deviceIdentifier = deviceIdentifier
        self.pushTokenSuffix = pushTokenSuffix
        self.enqueuedAt = enqueuedAt
        self.failedAt = failedAt
        self.attempts = attempts
        self.reason = reason
    }
}

/// The bounds of what the outbox keeps for operators.
public enum PushOutboxRecords {
    /// Failed pushes kept: older ones are deleted as new ones arrive.
    public static let keptFailures = 1_000
    /// Characters of a push token kept with a failure.
    public static let tokenSuffixLength = 8
    /// Characters of a reason kept.
    public static let reasonLength = 500
}
