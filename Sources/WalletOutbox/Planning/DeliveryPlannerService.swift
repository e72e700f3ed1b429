import FinanceData
import Foundation
import Logging
import ServiceLifecycle
import WalletPrimitives

/// Decides background deliveries as `orders serve` runs: every ``pollInterval`` (at once again
/// while change-log records remain), one ``FinanceData/BackgroundDeliveryRepository/planDeliveries(at:scanLimit:)``
/// pass. Several instances on one database take turns (the repository's lock); a pass that
/// finds nothing takes no write lock.
public struct DeliveryPlannerService: Service {
    let deliveries: any BackgroundDeliveryRepository
    let pollInterval: Duration
    let scanLimit: Int
    let clock: @Sendable () -> Date
    let logger: Logger
    /// Told each pass's report, for metrics.
    let onReport: @Sendable (DeliveryPlanReport) -> Void

    public init(
        deliveries: any BackgroundDeliveryRepository, pollInterval: Duration = .seconds(1), scanLimit: Int = 10_000,
        clock: @escaping @Sendable () -> Date = { Date() }, logger: Logger,
        onReport: @escaping @Sendable (DeliveryPlanReport) -> Void = { _ in }
    ) {
        self.deliveries = deliveries
        self.pollInterval = pollInterval
        self.scanLimit = scanLimit
        self.clock = clock
        self.logger = logger
        self.onReport = onReport
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                var more = false
                do {
                    more = try await planOnce().moreToScan
                } catch {
                    if Task.isCancelled { break }
                    logger.error("cannot decide background deliveries: \(error)")
                }
                if !more { try? await Task.sleep(for: pollInterval) }
            }
        }
    }

    /// One pass.
    @discardableResult
    public func planOnce() async throws -> DeliveryPlanReport {
        let report = try await deliveries.planDeliveries(at: clock(), scanLimit: scanLimit)
        if report.planned > 0 { logger.debug("background deliveries decided: \(report.planned)") }
        onReport(report)
        return report
    }
}
