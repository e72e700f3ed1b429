import Foundation
import OrderPackage
import OrderStorage
import WalletPrimitives

/// JSON for stored orders and versions, keys in a fixed order, every key present.
enum StoredOrderFormatter {
    static func json(_ order: StoredOrder) -> JSONValue {
        .object(
            JSONObject([
                .init(key: "orderTypeIdentifier", value: .string(order.identifier.orderTypeIdentifier)),
                .init(key: "orderIdentifier", value: .string(order.identifier.orderIdentifier)),
                .init(key: "updatedAt", value: .string(order.updatedAt.text)),
                .init(key: "createdAt", value: .string(order.createdAt.text)),
                .init(key: "status", value: .string(order.status)),
                .init(key: "merchantIdentifier", value: .string(order.merchantIdentifier)),
                .init(key: "merchant", value: .string(order.merchantDisplayName)),
                .init(key: "teamIdentifier", value: .string(order.teamIdentifier)),
                .init(key: "archiveSHA256", value: .string(order.archiveSHA256)),
                .init(key: "archiveSize", value: .number(String(order.archiveSize))),
                .init(key: "addedAt", value: .string(RFC3339Timestamp(order.addedAt).text)),
                .init(key: "replacedAt", value: .string(order.replacedAt.map { RFC3339Timestamp($0).text })),
            ]))
    }
}
