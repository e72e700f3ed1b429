import FinanceData
import Foundation
import WalletPrimitives

/// What became of one background delivery.
public enum WebhookOutcome: Sendable, Hashable {
    /// The endpoint answered 2xx.
    case delivered(status: Int)
    /// The endpoint answered `410 Gone`: it is disabled.
    case gone(String)
    /// Refused for good: another 4xx, a redirect (never followed), or a URL the check no longer
    /// allows. Recorded; its types go out with the next change.
    case refused(String)
    /// Failed for now: 5xx, 429, a timeout, a connection that failed. Retried with backoff.
    case retry(String)
}

/// Sends one background delivery. ``HTTPWebhookSender`` posts it; tests may script outcomes.
public protocol WebhookSender: Sendable {
    func send(_ delivery: PendingDelivery, at time: Date) async -> WebhookOutcome
}

/// The JSON body of a delivery: which types changed, its id and when it was decided — no
/// financial data; the receiver catches up with its history tokens.
public struct WebhookBody: Codable, Sendable, Hashable {
    public var deliveryID: UUID
    public var occurredAt: String
    public var types: [BackgroundDataType]

    public init(_ delivery: PendingDelivery) {
        deliveryID = delivery.deliveryID
        occurredAt = RFC3339Timestamp(delivery.occurredAt).text
        types = delivery.types
    }

    /// The bytes sent and signed: keys sorted, no spaces.
    public var encoded: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()
    }
}
