import Foundation
import Synchronization

/// The one clock tests move by hand: inject `clock.now` where the code under test takes a
/// `@Sendable () -> Date`, then `advance` it.
public final class TestClock: Sendable {
    private let current: Mutex<Date>

    /// Starts at `start` (by default 2026-11-18, a fixed instant).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) {
        current = Mutex(start)
    }

    /// The current instant.
    public func now() -> Date { current.withLock { $0 } }

    public func advance(days: Double) { advance(seconds: days * 86_400) }

    public func advance(seconds: Double) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
