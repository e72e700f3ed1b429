import Foundation

/// The one way an outbox item that failed for now goes on, for every kind of work: under its
/// ``RetryPolicy``, tried again later — `retry` records when — or, its attempts spent or its next
/// try past the policy's age, given up — `giveUp` records why ("given up after 3 attempts: …").
/// The work logs and counts the step it is told.
enum RetryLadder {
    enum Step {
        /// Recorded to be tried again at `next`, `delay` seconds from now.
        case retrying(next: Date, delay: Int)
        /// Recorded as failed for good, with `reason`.
        case givenUp(reason: String)
    }

    static func climb(
        _ policy: RetryPolicy, afterAttempts attempts: Int, writtenAt: Date, now: Date, reason: String,
        retry: (Date) async throws -> Void, giveUp: (String) async throws -> Void
    ) async throws -> Step {
        guard let next = policy.nextTry(afterAttempts: attempts, writtenAt: writtenAt, now: now) else {
            let given = "given up after \(attempts) attempts: \(reason)"
            try await giveUp(given)
            return .givenUp(reason: given)
        }
        try await retry(next)
        return .retrying(next: next, delay: Int(next.timeIntervalSince(now)))
    }
}
