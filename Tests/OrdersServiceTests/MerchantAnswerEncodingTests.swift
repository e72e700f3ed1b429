import Foundation
import OrderStorage
import Testing
import WalletPrimitives
import WalletWire

@testable import MerchantAPI

@Suite("Merchant answers: written JSON is JSONEncoder's, byte for byte")
struct MerchantAnswerEncodingTests {
    static let order: WireStoredOrder = {
        let instant = RFC3339Timestamp(Date(timeIntervalSince1970: 1_768_469_400.125))
        let identifier = FullyQualifiedOrderIdentifier(orderTypeIdentifier: "order.com.example/\"a\"", orderIdentifier: "Ä\n1")
        return WireStoredOrder(
            StoredOrder(
                identifier: identifier,
                updatedAt: instant, createdAt: instant, status: "open", merchantIdentifier: "merchant.com.example",
                merchantDisplayName: "Shop \\ \u{1}", teamIdentifier: "ABCDE12345", archiveSHA256: "ab", archiveSize: 99_688,
                addedAt: Date(timeIntervalSince1970: 1_768_469_401.5), replacedAt: Date(timeIntervalSince1970: 1_768_469_402)))
    }()

    @Test("containsOrder's answer, with and without the order")
    func answer() throws {
        let identifier = FullyQualifiedOrderIdentifier(orderTypeIdentifier: "order.com.example", orderIdentifier: "ORDER-1")
        for answer in [
            MerchantOrderAnswer(identifier: identifier, result: "exists", order: Self.order),
            MerchantOrderAnswer(identifier: identifier, result: "notFound", order: nil),
        ] {
            #expect(try WireFormat.encode(answer) == WireFormat.makeEncoder().encode(answer))
        }
    }

    @Test("a page of orders: empty, one, several; with and without a cursor")
    func page() throws {
        for page in [
            MerchantOrderPage(orders: [], nextCursor: nil),
            MerchantOrderPage(orders: [Self.order], nextCursor: "o50"),
            MerchantOrderPage(orders: [Self.order, Self.order, Self.order], nextCursor: nil),
        ] {
            #expect(try WireFormat.encode(page) == WireFormat.makeEncoder().encode(page))
        }
    }
}
