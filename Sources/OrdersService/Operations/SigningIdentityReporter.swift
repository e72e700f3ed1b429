import Foundation
import Logging
import ServiceCore
import ServiceLifecycle
import Synchronization
import WalletOrders

/// Reports, at start and every `interval`, whether this instance can sign with each active and
/// staged identity (``WalletOrders/WalletStore/reportSigningIdentities(instance:)``), so that
/// `orders signing activate` waits for every live instance; forgets its reports when it stops.
struct SigningIdentityReporter: Service {
    let wallet: WalletStore
    let instance: String
    let interval: Duration
    let logger: Logger

    func run() async throws {
        // The revisions this instance could not load at the last check: a failure is said once.
        let failing = Mutex<Set<String>>([])
        try await Periodically.run(every: interval) {
            do {
                let reports = try await wallet.reportSigningIdentities(instance: instance)
                // Said once when an identity stops loading here, not every interval.
                let before = failing.withLock { $0 }
                for report in reports where !report.loaded && !before.contains(report.revision) {
                    logger.warning(
                        "this instance cannot sign with the signing identity of \(report.orderTypeIdentifier): \(report.reason ?? "")",
                        metadata: ["revision": .string(String(report.revision.prefix(12)))])
                }
                failing.withLock { $0 = Set(reports.filter { !$0.loaded }.map(\.revision)) }
            } catch {
                if !Task.isCancelled { logger.warning("could not report the signing identities: \(error)") }
            }
        }
        try? await wallet.forgetSigningReports(of: instance)
    }

    /// `host-pid-random`: unique among the instances sharing a store, readable in `orders signing status`.
    static func instanceName() -> String {
        var generator = SystemRandomNumberGenerator()
        let suffix = String(UInt16.random(in: .min ... .max, using: &generator), radix: 16)
        return "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)-\(suffix)"
    }
}
