import Foundation
import Hummingbird
import OrderStorage
import ServiceCore
import WalletOrders
import WalletPrimitives

/// The push outbox: what waits (never tried, or retried with the reason its last attempt failed)
/// and what failed for good, with APNs' reason. Push tokens appear as their last characters.
extension ConsolePages {
    /// Waiting and failed pushes the page lists at most.
    static let listedPushes = 200

    struct WaitingRow {
        var order: String
        var href: String
        var device: String
        var token: String
        var state: String
        var attempts: Int
        var enqueuedAt: String
        var nextAttemptAt: String
        var lastError: String
    }

    struct FailedRow {
        var order: String
        var href: String
        var device: String
        var token: String
        var attempts: Int
        var failedAt: String
        var reason: String
    }

    struct OutboxModel: PageModel {
        var frame: PageFrame
        var waitingSummary: String
        var waiting: [WaitingRow]
        var failed: [FailedRow]
    }

    @Sendable func outbox(_ request: Request, context: OwnerContext) async throws -> Response {
        let session = context.caller.session
        let count = try await wallet.pendingPushCount()
        let waiting = try await wallet.waitingPushes(limit: Self.listedPushes)
        let failed = try await wallet.failedPushes(limit: Self.listedPushes)
        let listed = count > waiting.count ? " (the \(waiting.count) due first are listed)" : ""
        let model = OutboxModel(
            frame: PageFrame(title: "Push Outbox", text: .console, session: session.formToken, console: true),
            waitingSummary: count == 0
                ? "No push is waiting." : (count == 1 ? "1 push waiting" : "\(count) pushes waiting") + listed,
            waiting: waiting.map { entry in
                let identifier = FullyQualifiedOrderIdentifier(
                    orderTypeIdentifier: entry.push.orderTypeIdentifier, orderIdentifier: entry.push.orderIdentifier)
                return WaitingRow(
                    order: entry.push.orderIdentifier, href: Self.orderPath(identifier), device: entry.push.deviceIdentifier,
                    token: "…" + entry.push.pushToken.suffix(PushOutboxRecords.tokenSuffixLength),
                    state: entry.push.attempts == 0 ? "pending" : "retrying", attempts: entry.push.attempts,
                    enqueuedAt: RFC3339Timestamp(entry.push.enqueuedAt).text,
                    nextAttemptAt: RFC3339Timestamp(entry.nextAttemptAt).text, lastError: entry.lastError ?? "")
            },
            failed: failed.map { failure in
                let identifier = FullyQualifiedOrderIdentifier(
                    orderTypeIdentifier: failure.orderTypeIdentifier, orderIdentifier: failure.orderIdentifier)
                return FailedRow(
                    order: failure.orderIdentifier, href: Self.orderPath(identifier), device: failure.deviceIdentifier,
                    token: "…" + failure.pushTokenSuffix, attempts: failure.attempts,
                    failedAt: RFC3339Timestamp(failure.failedAt).text, reason: failure.reason)
            })
        return PageResponse.render("consoleOutbox", model)
    }
}
