import Foundation
import Synchronization

/// Whether the store answers, asked at most once per ``freshness`` while it does: `/health` is
/// polled, and under load one store read per request was most of what it cost. A store that
/// stops answering is reported within ``freshness``; a failed probe is not remembered, so a store
/// that answers again is healthy at the next request.
final class HealthProbe: Sendable {
    let freshness: Duration
    private let lastGood = Mutex<ContinuousClock.Instant?>(nil)

    init(freshness: Duration) {
        self.freshness = freshness
    }

    /// Runs `probe` unless it succeeded less than ``freshness`` ago; rethrows its error.
    func check(_ probe: () async throws -> Void) async throws {
        let now = ContinuousClock.now
        if let last = lastGood.withLock({ $0 }), now - last < freshness { return }
        try await probe()
        lastGood.withLock { $0 = max($0 ?? now, now) }
    }
}
