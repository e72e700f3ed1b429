import Logging
import ServiceCore
import ServiceLifecycle
import Synchronization
import WalletOrders

/// Applies the kept tracking events whose parcel an order now names — the event came before the
/// order — and those a stopped instance left half done, every
/// ``OrderTracking/TrackingLimits/sweepInterval``; forgets events past their lifetime every
/// ``OrderTracking/TrackingLimits/expiryInterval`` (docs/tracking.md, "Kept events"). Every
/// instance sweeps: an event makes at most one version of an order, whichever applies it.
struct TrackingSweeper: Service {
    let wallet: WalletStore
    let webService: WebServiceURLPolicy
    let metrics: ServiceMetrics
    let interval: Duration
    let logger: Logger

    init(
        wallet: WalletStore, webService: WebServiceURLPolicy, metrics: ServiceMetrics,
        interval: Duration = TrackingLimits.sweepInterval, logger: Logger
    ) {
        self.wallet = wallet
        self.webService = webService
        self.metrics = metrics
        self.interval = interval
        self.logger = logger
    }

    func run() async throws {
        // Expiry writes: once every expiryInterval, not at every sweep (an idle store stays idle).
        let sweepsPerExpiry = max(1, Int(TrackingLimits.expiryInterval / interval))
        let sweeps = Mutex(0)
        try await Periodically.run(every: interval) {
            do {
                let count = sweeps.withLock { count in
                    count += 1
                    return count
                }
                if count % sweepsPerExpiry == 1 || sweepsPerExpiry == 1 {
                    let forgotten = try await wallet.expireTrackingEvents()
                    if forgotten > 0 { logger.debug("tracking sweep forgot \(forgotten) events past their lifetime") }
                }
                for result in try await wallet.applyKeptTrackingEvents(webService: webService)
                where result.outcome != .unmatched {
                    metrics.recordTrackingEvent(provider: result.provider, outcome: result.outcome.rawValue)
                    logger.info(
                        "tracking event applied after its order was saved",
                        metadata: [
                            "provider": "\(result.provider)", "outcome": "\(result.outcome.rawValue)",
                            "versions": "\(result.versions.count)",
                        ])
                }
            } catch {
                // A busy or unreachable store, or an order type without a signing identity: the
                // next sweep tries again.
                if !Task.isCancelled { logger.warning("tracking sweep failed: \(error)") }
            }
        }
    }
}
