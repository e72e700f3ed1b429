import Foundation
import Hummingbird
import OrderStorage
import ServiceCore
import WalletOrders
import WalletPrimitives

/// Shipment tracking (docs/tracking.md): the configured webhooks (never their secrets), the
/// latest events and what each did, and the events no order names yet.
extension ConsolePages {
    /// Events each list shows at most (the newest).
    static let listedTrackingEvents = 200

    struct TrackingEndpointRow {
        var endpoint: String
        var provider: String
        var path: String
        var orderTypes: String
        var secrets: String
        var createdAt: String
    }

    struct TrackingEventRow {
        var receivedAt: String
        var provider: String
        var eventID: String
        var parcel: String
        var occurredAt: String
        var outcome: String
        var versions: Int
    }

    struct TrackingModel: PageModel {
        var frame: PageFrame
        var endpoints: [TrackingEndpointRow]
        var recent: [TrackingEventRow]
        var unmatched: [TrackingEventRow]
    }

    @Sendable func tracking(_ request: Request, context: OwnerContext) async throws -> Response {
        let session = context.caller.session
        let endpoints = try await wallet.trackingEndpoints()
        let recent = try await wallet.trackingEvents(limit: Self.listedTrackingEvents)
        let unmatched = try await wallet.trackingEvents(unmatched: true, limit: Self.listedTrackingEvents)
        let model = TrackingModel(
            frame: PageFrame(title: "Tracking", text: .console, session: session.formToken, console: true),
            endpoints: endpoints.map { endpoint in
                TrackingEndpointRow(
                    endpoint: endpoint.identifier, provider: endpoint.provider,
                    path: "/api/v1/tracking/\(endpoint.provider)/\(endpoint.identifier)",
                    orderTypes: endpoint.orderTypeIdentifiers.joined(separator: ", "),
                    secrets: endpoint.secrets.count == 1 ? "one" : "two (rotating)",
                    createdAt: RFC3339Timestamp(endpoint.createdAt).text)
            },
            recent: recent.map(Self.trackingRow), unmatched: unmatched.map(Self.trackingRow))
        return PageResponse.render("consoleTracking", model)
    }

    static func trackingRow(_ event: TrackingEventRecord) -> TrackingEventRow {
        TrackingEventRow(
            receivedAt: RFC3339Timestamp(event.receivedAt).text, provider: event.provider, eventID: event.eventID,
            parcel: event.trackingKey, occurredAt: RFC3339Timestamp(event.occurredAt).text, outcome: event.outcome.rawValue,
            versions: event.versions)
    }

    /// Who made a version that a tracking event made: the provider, its event id and when the
    /// event arrived.
    static func trackingAuthor(_ event: AppliedTrackingEvent) -> String {
        "\(event.provider) event \(event.eventID), received \(RFC3339Timestamp(event.receivedAt).text)"
    }
}
