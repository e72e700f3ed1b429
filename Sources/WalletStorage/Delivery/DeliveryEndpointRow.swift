import FinanceData
import Foundation
import WalletCore
import WalletPrimitives

/// The endpoint columns of ``SQLBackgroundDeliveryRepository``'s endpoint listing (0–12), read
/// into ``FinanceData/DeliveryEndpoint`` without its types.
struct EndpointRow {
    let id: String
    let client: String
    let url: String
    let createdAt: Int64
    let disabledAt: Int64?
    let disabledReason: String?
    let lastDeliveryID: String?
    let lastDeliveredAt: Int64?
    let lastDeliveredTypes: String?
    let lastFailureID: String?
    let lastFailureAt: Int64?
    let lastFailure: String?
    let pending: Int64

    init(_ row: any SQLRow) throws {
        id = try row.text(0)
        client = try row.text(1)
        url = try row.text(2)
        createdAt = try row.integer(3)
        disabledAt = try row.optionalInteger(4)
        disabledReason = try row.optionalText(5)
        lastDeliveryID = try row.optionalText(6)
        lastDeliveredAt = try row.optionalInteger(7)
        lastDeliveredTypes = try row.optionalText(8)
        lastFailureID = try row.optionalText(9)
        lastFailureAt = try row.optionalInteger(10)
        lastFailure = try row.optionalText(11)
        pending = try row.integer(12)
    }

    func endpoint() throws -> DeliveryEndpoint {
        guard let uuid = UUID(uuidString: id) else { throw FinanceRows.CorruptRow(column: 0, value: id) }
        guard let owner = ClientIdentifier(rawValue: client) else { throw FinanceRows.CorruptRow(column: 1, value: client) }
        var endpoint = DeliveryEndpoint(
            id: uuid, client: owner, url: try SQLBackgroundDeliveryRepository.url(url), frequencies: [:],
            createdAt: Microseconds.date(createdAt), pendingDeliveries: Int(pending))
        if let disabledAt {
            endpoint.disabled = DeliveryEndpoint.Disabled(at: Microseconds.date(disabledAt), reason: disabledReason ?? "")
        }
        if let lastDeliveryID, let lastDeliveredAt, let delivery = UUID(uuidString: lastDeliveryID) {
            endpoint.lastDelivery = DeliveryEndpoint.Delivered(
                deliveryID: delivery, at: Microseconds.date(lastDeliveredAt),
                types: try SQLBackgroundDeliveryRepository.types(lastDeliveredTypes ?? "", column: 8))
        }
        if let lastFailureID, let lastFailureAt, let delivery = UUID(uuidString: lastFailureID) {
            endpoint.lastFailure = DeliveryEndpoint.Failure(
                deliveryID: delivery, at: Microseconds.date(lastFailureAt), reason: lastFailure ?? "")
        }
        return endpoint
    }
}
