import Foundation
import Logging
import OrderStorage
import WalletPrimitives

/// The push outbox as an ``OutboxWork``: each claimed push sent through a ``PushSender``, then
/// completed, retried with backoff (``RetryPolicy/pushes``), or failed for good and kept with
/// its reason among the outbox's failures (``OrderStorage/PushOutbox/failPush(_:reason:at:)``) —
/// when APNs says the device token is gone, its registrations removed too.
public struct PushWork: OutboxWork {
    let outbox: any PushOutbox
    let registrations: any RegistrationRepository
    let sender: any PushSender
    let retry: RetryPolicy
    let clock: @Sendable () -> Date
    let logger: Logger
    /// Told every outcome (`delivered`, `recorded`, `retry`, `unregistered`, `dropped`), for
    /// metrics.
    let onOutcome: @Sendable (String) -> Void
    /// Told how many versions a delivered push announced beyond its first (versions saved while
    /// it waited, which needed no push of their own), for metrics.
    let onCoalesced: @Sendable (Int) -> Void

    public init(
        outbox: any PushOutbox, registrations: any RegistrationRepository, sender: any PushSender,
        retry: RetryPolicy = .pushes, clock: @escaping @Sendable () -> Date = { Date() }, logger: Logger,
        onOutcome: @escaping @Sendable (String) -> Void = { _ in }, onCoalesced: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.outbox = outbox
        self.registrations = registrations
        self.sender = sender
        self.retry = retry
        self.clock = clock
        self.logger = logger
        self.onOutcome = onOutcome
        self.onCoalesced = onCoalesced
    }

    public func claim(dueAt time: Date, leaseEnd: Date, limit: Int) async throws -> [PendingPush] {
        try await outbox.claimPushes(dueAt: time, leaseEnd: leaseEnd, limit: limit)
    }

    public func deliver(_ push: PendingPush) async {
        let metadata: Logger.Metadata = [
            "apns.topic": .string(push.orderTypeIdentifier), "order": .string(push.orderIdentifier),
            "device": .string(push.deviceIdentifier), "attempt": .stringConvertible(push.attempts + 1),
        ]
        let delivery = await sender.send(push)
        do {
            switch delivery {
            case .delivered, .recorded:
                try await outbox.completePush(push, at: clock())
                onOutcome(delivery == .delivered ? "delivered" : "recorded")
                if push.coalesced > 0 { onCoalesced(push.coalesced) }
            case .unregistered(let reason):
                let removed = try await registrations.removeRegistrations(pushToken: push.pushToken)
                try await outbox.failPush(push, reason: "the device token is gone: \(reason)", at: clock())
                logger.notice(
                    "APNs says the device token is gone (\(reason)); removed \(removed) registrations", metadata: metadata)
                onOutcome("unregistered")
            case .dropped(let reason):
                try await outbox.failPush(push, reason: reason, at: clock())
                logger.error("APNs refused the push for good: \(reason)", metadata: metadata)
                onOutcome("dropped")
            case .retry(let reason):
                let now = clock()
                let step = try await RetryLadder.climb(
                    retry, afterAttempts: push.attempts + 1, writtenAt: push.enqueuedAt, now: now, reason: reason,
                    retry: { next in try await outbox.retryPush(push.id, at: next, reason: reason) },
                    giveUp: { given in try await outbox.failPush(push, reason: given, at: now) })
                switch step {
                case .retrying(_, let delay):
                    logger.warning("push failed, retrying in \(delay) s: \(reason)", metadata: metadata)
                    onOutcome("retry")
                case .givenUp(let given):
                    logger.error("push \(given)", metadata: metadata)
                    onOutcome("dropped")
                }
            }
        } catch {
            // The lease ends and the push is claimed again.
            logger.error("the outbox could not record a delivery: \(error)", metadata: metadata)
        }
    }
}

extension OutboxDrainer where Work == PushWork {
    /// A drainer of the push outbox (``PushWork``).
    public init(
        outbox: any PushOutbox, registrations: any RegistrationRepository, sender: any PushSender,
        configuration: Configuration = Configuration(), retry: RetryPolicy = .pushes,
        clock: @escaping @Sendable () -> Date = { Date() }, logger: Logger,
        onOutcome: @escaping @Sendable (String) -> Void = { _ in }, onCoalesced: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.init(
            work: PushWork(
                outbox: outbox, registrations: registrations, sender: sender, retry: retry, clock: clock, logger: logger,
                onOutcome: onOutcome, onCoalesced: onCoalesced),
            configuration: configuration, clock: clock, logger: logger)
    }
}
