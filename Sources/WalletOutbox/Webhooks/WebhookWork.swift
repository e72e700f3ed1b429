import FinanceData
import Foundation
import Logging
import WalletCore
import WalletPrimitives

/// The background-delivery outbox as an ``OutboxWork``: each claimed delivery sent through a
/// ``WebhookSender`` and its outcome recorded — delivered; retried with backoff and jitter
/// (``RetryPolicy/webhooks``: up to 24 h between tries, given up when the next try would come
/// more than 72 h after the delivery was decided, then recorded as a failure whose types the
/// next change delivers); refused for good (recorded likewise); or
/// `410 Gone` (the endpoint disabled). While financial data is restricted nothing is sent: each
/// delivery is postponed by ``restrictionPause`` without counting an attempt.
public struct WebhookWork: OutboxWork {
    let deliveries: any BackgroundDeliveryRepository
    let access: any AccessRepository
    let sender: any WebhookSender
    let retry: RetryPolicy
    let restrictionPause: Duration
    let clock: @Sendable () -> Date
    let logger: Logger
    /// Told every outcome (`delivered`, `retry`, `failed`, `gone`, `paused`, `withdrawn`), for
    /// metrics.
    let onOutcome: @Sendable (String) -> Void

    public init(
        deliveries: any BackgroundDeliveryRepository, access: any AccessRepository, sender: any WebhookSender,
        retry: RetryPolicy = .webhooks, restrictionPause: Duration = .seconds(60),
        clock: @escaping @Sendable () -> Date = { Date() },
        logger: Logger, onOutcome: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.deliveries = deliveries
        self.access = access
        self.sender = sender
        self.retry = retry
        self.restrictionPause = restrictionPause
        self.clock = clock
        self.logger = logger
        self.onOutcome = onOutcome
    }

    public func claim(dueAt time: Date, leaseEnd: Date, limit: Int) async throws -> [PendingDelivery] {
        try await deliveries.claimDeliveries(dueAt: time, leaseEnd: leaseEnd, limit: limit)
    }

    public func deliver(_ delivery: PendingDelivery) async {
        let metadata: Logger.Metadata = [
            "client": .string(delivery.client.rawValue), "delivery": .string(delivery.deliveryID.uuidString),
            "host": .string(delivery.url.host), "attempt": .stringConvertible(delivery.attempts + 1),
        ]
        do {
            if try await access.restriction(of: .financialData) != nil {
                try await deliveries.postpone(
                    delivery.deliveryID, until: clock().addingTimeInterval(restrictionPause.timeInterval))
                onOutcome("paused")
                return
            }
            // Revoked, its types disabled, or its endpoint disabled by another delivery's 410 since
            // it was claimed: the row went with them; nothing is sent.
            guard try await deliveries.isPending(delivery.deliveryID) else {
                onOutcome("withdrawn")
                return
            }
            let outcome = await sender.send(delivery, at: clock())
            switch outcome {
            case .delivered(let status):
                try await deliveries.recordDelivered(delivery.deliveryID, at: clock())
                logger.info("background delivery delivered (HTTP \(status))", metadata: metadata)
                onOutcome("delivered")
            case .gone(let reason):
                try await deliveries.recordGone(delivery.deliveryID, reason: reason, at: clock())
                logger.notice("the delivery endpoint is gone (\(reason)); disabled until enabled again", metadata: metadata)
                onOutcome("gone")
            case .refused(let reason):
                try await deliveries.recordFailed(delivery.deliveryID, reason: reason, at: clock())
                logger.warning("background delivery refused: \(reason)", metadata: metadata)
                onOutcome("failed")
            case .retry(let reason):
                let now = clock()
                let step = try await RetryLadder.climb(
                    retry, afterAttempts: delivery.attempts + 1, writtenAt: delivery.occurredAt, now: now, reason: reason,
                    retry: { next in try await deliveries.recordRetry(delivery.deliveryID, next: next, reason: reason, at: now) },
                    giveUp: { given in try await deliveries.recordFailed(delivery.deliveryID, reason: given, at: now) })
                switch step {
                case .retrying(_, let delay):
                    logger.warning("background delivery failed, retrying in \(delay) s: \(reason)", metadata: metadata)
                    onOutcome("retry")
                case .givenUp(let given):
                    logger.error("background delivery \(given)", metadata: metadata)
                    onOutcome("failed")
                }
            }
        } catch {
            // The lease ends and the delivery is claimed again, with the same id.
            logger.error("the delivery outbox could not record an outcome: \(error)", metadata: metadata)
        }
    }
}

extension OutboxDrainer where Work == WebhookWork {
    /// A drainer of the background-delivery outbox (``WebhookWork``).
    public init(
        deliveries: any BackgroundDeliveryRepository, access: any AccessRepository, sender: any WebhookSender,
        configuration: Configuration = Configuration(), retry: RetryPolicy = .webhooks,
        clock: @escaping @Sendable () -> Date = { Date() }, logger: Logger,
        onOutcome: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.init(
            work: WebhookWork(
                deliveries: deliveries, access: access, sender: sender, retry: retry, clock: clock, logger: logger,
                onOutcome: onOutcome),
            configuration: configuration, clock: clock, logger: logger)
    }
}
