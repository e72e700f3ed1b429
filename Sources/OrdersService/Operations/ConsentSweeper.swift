import Logging
import ServiceCore
import ServiceLifecycle
import WalletOrders

/// Deletes what the consent machinery no longer needs, every few seconds: expired codes — and
/// with them the transactions a picker code held, so nothing of a pick outlives its code —
/// expired tokens and sessions, old failed sign-ins. Every instance sweeps; the deletes are
/// idempotent.
struct ConsentSweeper: Service {
    let wallet: WalletStore
    let interval: Duration
    let logger: Logger

    init(wallet: WalletStore, interval: Duration = .seconds(5), logger: Logger) {
        self.wallet = wallet
        self.interval = interval
        self.logger = logger
    }

    func run() async throws {
        try await Periodically.run(every: interval) {
            do {
                let removed = try await wallet.consent.purgeExpired()
                if removed > 0 { logger.debug("consent sweep removed \(removed) expired records") }
            } catch {
                // A busy or unreachable store: the next sweep tries again.
                if !Task.isCancelled { logger.warning("consent sweep failed: \(error)") }
            }
        }
    }
}
