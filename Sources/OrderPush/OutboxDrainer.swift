import Foundation
import Logging
import OrderStorage
import ServiceLifecycle
import WalletPrimitives

/// Delivers the push outbox: claims due pushes with a lease, sends them, and completes, retries
/// with backoff, or removes the registrations APNs says are gone. Runs as a service beside the
/// HTTP server and stops at graceful shutdown; a push claimed by a process that died is claimed
/// again when its lease ends, so a push committed with its order is never lost.
public struct OutboxDrainer: Service {
    public struct Configuration: Sendable {
        /// How long to wait when the outbox is empty.
        public var pollInterval: Duration
        /// How many pushes one claim takes.
        public var batchSize: Int
        /// How long a claim keeps others away from a push.
        public var lease: Duration
        /// After this many failed attempts a push is dropped.
        public var maximumAttempts: Int
        /// The first retry's delay; each further one doubles, up to ``maximumBackoff``.
        public var initialBackoff: Duration
        public var maximumBackoff: Duration

        public init(
            pollInterval: Duration = .seconds(1), batchSize: Int = 50, lease: Duration = .seconds(60), maximumAttempts: Int = 12,
            initialBackoff: Duration = .seconds(5), maximumBackoff: Duration = .seconds(3600)
        ) {
            self.pollInterval = pollInterval
            self.batchSize = batchSize
            self.lease = lease
            self.maximumAttempts = maximumAttempts
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
        }
    }

    let outbox: any PushOutbox
    let registrations: any RegistrationRepository
    let sender: any PushSender
    let configuration: Configuration
    let clock: @Sendable () -> Date
    let logger: Logger
    /// Told every outcome (`delivered`, `recorded`, `retry`, `unregistered`, `dropped`), for
    /// metrics.
    let onOutcome: @Sendable (String) -> Void

    public init(
        outbox: any PushOutbox, registrations: any RegistrationRepository, sender: any PushSender,
        configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Date = { Date() }, logger: Logger,
        onOutcome: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.outbox = outbox
        self.registrations = registrations
        self.sender = sender
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.onOutcome = onOutcome
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                var handled = 0
                do {
                    handled = try await drainOnce()
                } catch {
                    // Stopping cancels the read in flight; anything else means the store is busy
                    // or gone: say so, and try again after the poll interval.
                    if Task.isCancelled { break }
                    logger.error("cannot read the push outbox: \(error)")
                }
                if handled == 0 { try? await Task.sleep(for: configuration.pollInterval) }
            }
        }
    }

    /// One claim and its deliveries; returns how many pushes were handled.
    @discardableResult
    public func drainOnce() async throws -> Int {
        let now = clock()
        let pushes = try await outbox.claimPushes(
            dueAt: now, leaseEnd: now.addingTimeInterval(configuration.lease.timeInterval), limit: configuration.batchSize)
        await withTaskGroup(of: Void.self) { group in
            for push in pushes {
                group.addTask { await deliver(push) }
            }
        }
        return pushes.count
    }

    private func deliver(_ push: PendingPush) async {
        let metadata: Logger.Metadata = [
            "apns.topic": .string(push.orderTypeIdentifier), "order": .string(push.orderIdentifier),
            "device": .string(push.deviceIdentifier), "attempt": .stringConvertible(push.attempts + 1),
        ]
        let delivery = await sender.send(push)
        do {
            switch delivery {
            case .delivered, .recorded:
                try await outbox.completePush(push.id)
                onOutcome(delivery == .delivered ? "delivered" : "recorded")
            case .unregistered(let reason):
                let removed = try await registrations.removeRegistrations(pushToken: push.pushToken)
                try await outbox.completePush(push.id)
                logger.notice(
                    "APNs says the device token is gone (\(reason)); removed \(removed) registrations", metadata: metadata)
                onOutcome("unregistered")
            case .dropped(let reason):
                try await outbox.completePush(push.id)
                logger.error("APNs refused the push for good: \(reason)", metadata: metadata)
                onOutcome("dropped")
            case .retry(let reason) where push.attempts + 1 >= configuration.maximumAttempts:
                try await outbox.completePush(push.id)
                logger.error("push dropped after \(push.attempts + 1) attempts: \(reason)", metadata: metadata)
                onOutcome("dropped")
            case .retry(let reason):
                let delay = backoff(afterAttempts: push.attempts + 1)
                try await outbox.retryPush(push.id, at: clock().addingTimeInterval(delay), reason: reason)
                logger.warning("push failed, retrying in \(Int(delay)) s: \(reason)", metadata: metadata)
                onOutcome("retry")
            }
        } catch {
            // The lease ends and the push is claimed again.
            logger.error("the outbox could not record a delivery: \(error)", metadata: metadata)
        }
    }

    /// `initialBackoff × 2^(attempts−1)`, capped, with up to 20 % jitter so that retries of
    /// many pushes do not arrive together.
    func backoff(afterAttempts attempts: Int) -> TimeInterval {
        let base = configuration.initialBackoff.timeInterval * pow(2, Double(min(attempts - 1, 30)))
        let capped = min(base, configuration.maximumBackoff.timeInterval)
        return capped * Double.random(in: 0.8...1.0)
    }
}
