import Foundation
import WalletPrimitives

/// When to try a failed delivery again, and when to stop: exponential backoff with jitter,
/// capped, and a limit in attempts or in age.
public struct RetryPolicy: Sendable, Hashable {
    /// The first retry's delay; each further one doubles, up to ``maximumBackoff``.
    public var initialBackoff: Duration
    public var maximumBackoff: Duration
    /// Give up after this many attempts (nil: no limit by count).
    public var maximumAttempts: Int?
    /// Give up rather than try an item again this long after it was written (nil: no limit by
    /// age).
    public var maximumAge: Duration?

    public init(initialBackoff: Duration, maximumBackoff: Duration, maximumAttempts: Int? = nil, maximumAge: Duration? = nil) {
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.maximumAttempts = maximumAttempts
        self.maximumAge = maximumAge
    }

    /// APNs pushes: 5 s doubling to an hour, 12 attempts.
    public static let pushes = RetryPolicy(initialBackoff: .seconds(5), maximumBackoff: .seconds(3_600), maximumAttempts: 12)

    /// Background deliveries: 30 s doubling to 24 hours between tries, for up to 72 hours after
    /// the delivery was decided.
    public static let webhooks = RetryPolicy(
        initialBackoff: .seconds(30), maximumBackoff: .seconds(86_400), maximumAge: .seconds(72 * 3_600))

    /// `initialBackoff × 2^(attempts−1)`, capped, less up to 20 % jitter so that retries of many
    /// items do not arrive together.
    public func delay(afterAttempts attempts: Int) -> TimeInterval {
        let base = initialBackoff.timeInterval * pow(2, Double(min(max(attempts, 1) - 1, 40)))
        return min(base, maximumBackoff.timeInterval) * Double.random(in: 0.8...1.0)
    }

    /// When to try an item written at `writtenAt` again, now that it has failed `attempts` times;
    /// nil when it is given up (its attempts spent, or its next try would be past
    /// ``maximumAge``).
    public func nextTry(afterAttempts attempts: Int, writtenAt: Date, now: Date) -> Date? {
        let next = now.addingTimeInterval(delay(afterAttempts: attempts))
        return givesUp(afterAttempts: attempts, age: next.timeIntervalSince(writtenAt)) ? nil : next
    }

    /// Whether an item that has now failed `attempts` times, and would be `age` old at its next
    /// try, is given up.
    public func givesUp(afterAttempts attempts: Int, age: TimeInterval) -> Bool {
        if let maximumAttempts, attempts >= maximumAttempts { return true }
        if let maximumAge, age >= maximumAge.timeInterval { return true }
        return false
    }
}
