import Foundation
import Logging
import ServiceLifecycle
import WalletPrimitives

/// Drains a durable outbox (``OutboxWork``): claims due items with a lease, delivers them
/// concurrently, and waits a poll interval when there was nothing to do. Runs as a service beside
/// the HTTP server and stops at graceful shutdown; an item claimed by a process that died is
/// claimed again when its lease ends, so an item committed is never lost.
public struct OutboxDrainer<Work: OutboxWork>: Service {
    public struct Configuration: Sendable {
        /// How long to wait when the outbox is empty.
        public var pollInterval: Duration
        /// How many items one claim takes.
        public var batchSize: Int
        /// How long a claim keeps others away from an item.
        public var lease: Duration

        public init(pollInterval: Duration = .seconds(1), batchSize: Int = 50, lease: Duration = .seconds(60)) {
            self.pollInterval = pollInterval
            self.batchSize = batchSize
            self.lease = lease
        }
    }

    public let work: Work
    let configuration: Configuration
    let clock: @Sendable () -> Date
    let logger: Logger

    public init(
        work: Work, configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> Date = { Date() },
        logger: Logger
    ) {
        self.work = work
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
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
                    logger.error("cannot read the outbox: \(error)")
                }
                if handled == 0 { try? await Task.sleep(for: configuration.pollInterval) }
            }
        }
    }

    /// One claim and its deliveries; returns how many items were handled.
    @discardableResult
    public func drainOnce() async throws -> Int {
        let now = clock()
        let items = try await work.claim(
            dueAt: now, leaseEnd: now.addingTimeInterval(configuration.lease.timeInterval), limit: configuration.batchSize)
        let work = self.work
        await withTaskGroup(of: Void.self) { group in
            for item in items {
                group.addTask { await work.deliver(item) }
            }
        }
        return items.count
    }
}
