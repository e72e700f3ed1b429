import Foundation

/// What an ``OutboxDrainer`` drains: a durable outbox whose items are claimed with a lease and
/// then delivered, each delivery recording its own outcome (done, retry later, gone). APNs
/// pushes (``PushWork``) and background deliveries (``WebhookWork``) are the two.
public protocol OutboxWork: Sendable {
    associatedtype Item: Sendable

    /// Claims up to `limit` items due at `time` until `leaseEnd`; an item whose sender dies is
    /// claimed again once its lease ends.
    func claim(dueAt time: Date, leaseEnd: Date, limit: Int) async throws -> [Item]

    /// Sends one claimed item and records what became of it. Never throws: a failure to record
    /// leaves the item to be claimed again when its lease ends.
    func deliver(_ item: Item) async
}
