import Foundation
import Logging
import OrderPackage
import ServiceCore
import ServiceLifecycle
import WalletOrders
import WalletPrimitives

/// Logs a warning once a day for each signing identity's certificate that expires within
/// ``CertificateExpiry/warningDays`` days (an error once it has): an Order Type ID certificate
/// lasts a year, and a version signed after it expired is refused by Wallet. The first check is
/// at start.
struct SigningExpiryWatch: Service {
    let wallet: WalletStore
    let interval: Duration
    let clock: @Sendable () -> Date
    let logger: Logger

    init(
        wallet: WalletStore, interval: Duration = .seconds(24 * 3600), clock: @escaping @Sendable () -> Date = { Date() },
        logger: Logger
    ) {
        self.wallet = wallet
        self.interval = interval
        self.clock = clock
        self.logger = logger
    }

    func run() async throws {
        try await Periodically.run(every: interval) { await check() }
    }

    /// One pass: a line per certificate under the warning period.
    func check() async {
        let expiries: [String: [CertificateExpiry]]
        do {
            expiries = try await wallet.signingCertificateExpiries()
        } catch {
            if !Task.isCancelled { logger.warning("could not read the signing identities to check their expiry: \(error)") }
            return
        }
        let now = clock()
        for (type, certificates) in expiries.sorted(by: { $0.key < $1.key }) {
            for expiry in certificates where expiry.daysLeft(at: now) < CertificateExpiry.warningDays {
                let metadata: Logger.Metadata = [
                    "order_type": .string(type), "role": .string(expiry.role.rawValue),
                    "not_after": .string(RFC3339Timestamp(expiry.notAfter).text),
                ]
                if expiry.notAfter <= now {
                    logger.error(
                        "the signing \(expiry.role.rawValue) of \(type) has expired: authoring it fails until a new one is added (orders signing add)",
                        metadata: metadata)
                } else {
                    logger.warning(
                        "the signing \(expiry.role.rawValue) of \(type) expires in \(expiry.daysLeft(at: now)) days: add its successor (orders signing add)",
                        metadata: metadata)
                }
            }
        }
    }
}
