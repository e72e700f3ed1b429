import Synchronization
import WalletConsent

/// At most a few bcrypt checks at once, and a bounded line behind them: a flood of sign-ins
/// would otherwise put a quarter of a second of CPU per request on every core. Those past the
/// line are refused at once (``WalletConsent/ConsentError/signInThrottled(retryAfter:)``).
final class PasswordCheckGate: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let concurrent: Int
    private let maximumWaiting: Int

    init(concurrent: Int, maximumWaiting: Int) {
        self.concurrent = concurrent
        self.maximumWaiting = maximumWaiting
    }

    private enum Entry { case now, wait, refused }

    func run<T: Sendable>(_ body: @Sendable () async -> T) async throws(ConsentError) -> T {
        // Refused at once: a line this long is a flood, and the browser may try again soon.
        let entry = state.withLock { state -> Entry in
            if state.running < concurrent {
                state.running += 1
                return .now
            }
            return state.waiting.count < maximumWaiting ? .wait : .refused
        }
        switch entry {
        case .refused:
            throw .signInThrottled(retryAfter: 5)
        case .wait:
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    guard state.running >= concurrent else {
                        state.running += 1
                        return true
                    }
                    state.waiting.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        case .now:
            break
        }
        defer { leave() }
        return await body()
    }

    /// Hands the slot to the next waiter (still counted as running), or frees it.
    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
