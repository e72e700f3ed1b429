import Foundation
import OrderPackage
import TestArchiveTable
import Testing

@Suite("order.json validation and the Order model")
struct OrderValidatorTests {
    static func order(_ edit: (inout [String: Any]) -> Void = { _ in }) throws -> Data {
        let base = try TestArchiveTable.data("sources/small/order.json")
        var object = try #require(try JSONSerialization.jsonObject(with: base) as? [String: Any])
        edit(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    static func findings(_ data: Data) -> [String] {
        let validation = OrderValidator().validate(data)
        return (validation.errors + validation.warnings).map { "\($0.code) \($0.path ?? "")" }
    }

    @Test("a valid order decodes into the model, amounts exact")
    func decodes() throws {
        let validation = OrderValidator().validate(try Self.order())
        #expect(validation.errors.isEmpty)
        let order = try #require(validation.order)
        #expect(order.orderIdentifier == "ORDER-123")
        #expect(order.updatedAt.text == "2026-01-15T09:30:00.125Z")
        #expect(order.lineItems?.first?.price?.amount == Decimal(string: "24.50"))
        #expect(order.payment?.total == Order.CurrencyAmount(amount: 49, currency: "EUR"))
        guard case .shipping(let shipping)? = order.fulfillments?.first else {
            Issue.record("no shipping fulfillment")
            return
        }
        #expect(shipping.status == .onTheWay)
        #expect(shipping.estimatedDeliveryAt?.text == "2026-01-17T18:00:00+01:00")
    }

    @Test("every problem is reported with its path, not just the first")
    func everyProblem() throws {
        let data = try Self.order { order in
            order["status"] = "shipped"
            order["schemaVersion"] = 2
            order.removeValue(forKey: "orderManagementURL")
            order["merchant"] = ["displayName": "", "merchantIdentifier": 7, "url": "https://x.example"]
            order["lineItems"] = [["title": "A", "quantity": -1], "not an object", ["quantity": 1]]
            order["barcode"] = ["format": "qr"]
            order["customer"] = [1]
        }
        #expect(
            Set(Self.findings(data)) == [
                "order.invalidValue schemaVersion", "order.missingKey orderManagementURL", "order.invalidValue status",
                "order.invalidValue merchant.displayName", "order.invalidValue merchant.merchantIdentifier",
                "order.invalidValue lineItems[0].quantity", "order.invalidValue lineItems[1]",
                "order.missingKey lineItems[2].title",
                "order.missingKey barcode.message", "order.invalidValue customer",
            ])
        #expect(OrderValidator().validate(data).order == nil)
    }

    @Test("web service rules: https only, a token of 16+ characters, a token alone is a warning")
    func webService() throws {
        #expect(
            Self.findings(try Self.order { $0["webServiceURL"] = "http://x.example/" }) == ["order.invalidValue webServiceURL"])
        #expect(
            Self.findings(try Self.order { $0.removeValue(forKey: "authenticationToken") }) == [
                "order.missingKey authenticationToken"
            ])
        #expect(
            Self.findings(try Self.order { $0["authenticationToken"] = "123456789012345" }) == [
                "order.invalidValue authenticationToken"
            ])
        #expect(Self.findings(try Self.order { $0["authenticationToken"] = "1234567890123456" }).isEmpty)
        #expect(
            Self.findings(try Self.order { $0.removeValue(forKey: "webServiceURL") }) == [
                "order.tokenWithoutWebService authenticationToken"
            ])
    }

    @Test("dates: RFC 3339 with an offset, updatedAt not before createdAt")
    func dates() throws {
        #expect(Self.findings(try Self.order { $0["updatedAt"] = "2026-01-15T09:29:59.999Z" }) == ["order.invalidDate updatedAt"])
        #expect(Self.findings(try Self.order { $0["updatedAt"] = "2026-01-15T09:30:00Z" }).isEmpty)
        #expect(Self.findings(try Self.order { $0["createdAt"] = "2026-01-15T09:30:00" }) == ["order.invalidDate createdAt"])
    }

    @Test("amounts: strings exact, numbers accepted with a warning, malformed strings rejected")
    func amounts() throws {
        let numeric = try Self.order { order in
            order["payment"] = ["total": ["amount": 0.1, "currency": "EUR"]]
        }
        let validation = OrderValidator().validate(numeric)
        #expect(validation.errors.isEmpty)
        #expect(validation.warnings.map(\.issueCode) == [.orderNumericAmount])
        #expect(validation.order?.payment?.total.amount == Decimal(string: "0.1"))
        for bad in ["12,50", "1e3", "", " 1", "1.", ".5", "--1"] {
            let data = try Self.order { $0["payment"] = ["total": ["amount": bad, "currency": "EUR"]] }
            #expect(Self.findings(data) == ["order.invalidValue payment.total.amount"], "\(bad)")
        }
        let tenth = try #require(Order.CurrencyAmount.decoding("0.1"))
        let fifth = try #require(Order.CurrencyAmount.decoding("0.2"))
        #expect(tenth + fifth == Decimal(string: "0.3"))
    }

    @Test("codes: currencies three capitals, countries two")
    func codes() throws {
        #expect(
            Self.findings(try Self.order { $0["payment"] = ["total": ["amount": "1", "currency": "eur"]] }) == [
                "order.invalidValue payment.total.currency"
            ])
        let address = try Self.order {
            $0["merchant"] = [
                "displayName": "A", "merchantIdentifier": "m", "url": "https://a.example", "address": ["countryCode": "USA"],
            ]
        }
        #expect(Self.findings(address) == ["order.invalidValue merchant.address.countryCode"])
    }

    @Test("unknown keys warn; null counts as absent")
    func unknownAndNull() throws {
        #expect(
            Self.findings(
                try Self.order {
                    $0["extra"] = 1; $0["orderNumber"] = NSNull()
                }) == ["order.unknownKey extra"])
        #expect(Self.findings(try Self.order { $0["status"] = NSNull() }) == ["order.missingKey status"])
    }

    @Test("fulfillments are told apart by fulfillmentType")
    func fulfillmentTypes() throws {
        let data = try Self.order { order in
            order["fulfillments"] = [
                ["fulfillmentType": "drone", "fulfillmentIdentifier": "D"],
                ["fulfillmentType": "pickup", "fulfillmentIdentifier": "P", "status": "pickedUp", "displayName": "Store"],
                ["fulfillmentIdentifier": "X"],
            ]
        }
        #expect(
            Set(Self.findings(data)) == [
                "order.invalidValue fulfillments[0].fulfillmentType", "order.missingKey fulfillments[2].fulfillmentType",
            ])
    }

    @Test("the model round-trips through JSONEncoder/JSONDecoder with Apple's shapes")
    func codable() throws {
        let archive = try ZipArchive(reading: TestArchiveTable.data("valid/full.order"))
        let orderJSON = try #require(archive["order.json"])
        let order = try #require(OrderValidator().validate(orderJSON).order)
        let encoded = try JSONEncoder().encode(order)
        let decoded = try JSONDecoder().decode(Order.self, from: encoded)
        #expect(decoded == order)
        // Re-validating the encoder's output finds nothing: the model writes valid order.json.
        #expect(OrderValidator().validate(encoded).errors.isEmpty)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains(#""amount":"61""#) || text.contains(#""amount":"61.00""#))
        #expect(text.contains(#""fulfillmentType":"pickup""#))
        #expect(decoded.fulfillments?.map(\.statusName) == ["delivered", "readyForPickup"])
        guard case .pickup(let pickup)? = order.fulfillments?.last else {
            Issue.record("no pickup fulfillment")
            return
        }
        // Doubles come straight from the literal, never through Decimal.
        #expect(pickup.location == Order.Location(latitude: 47.3769, longitude: 8.5417, altitude: 408))
    }

    @Test("invalid JSON is reported with its position")
    func invalidJSON() {
        let validation = OrderValidator().validate(Data("{\"a\": }".utf8))
        #expect(validation.errors.map(\.issueCode) == [.orderInvalidJSON])
        #expect(validation.errors.first?.message.contains("line 1, column 7") == true)
    }
}

extension Order.CurrencyAmount {
    fileprivate static func decoding(_ literal: String) -> Decimal? {
        (try? JSONDecoder().decode(Order.CurrencyAmount.self, from: Data(#"{"amount":"\#(literal)","currency":"EUR"}"#.utf8)))?
            .amount
    }
}
