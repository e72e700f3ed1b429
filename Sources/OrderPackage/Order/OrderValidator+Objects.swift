import Foundation
import WalletPrimitives

// Readers for the objects of order.json, one per schema object (docs/order-format.md §5).
//
// Each reader asks for every key before deciding whether it can build its value, so that all
// problems of an object are recorded even when a required key is missing; placeholders stand in
// for missing required values only until the final guard discards the value.
extension OrderValidator {
    static func readMerchant(_ reader: OrderObjectReader) -> Order.Merchant? {
        let displayName = reader.string("displayName", required: true)
        let merchantIdentifier = reader.string("merchantIdentifier", required: true)
        let url = reader.url("url", required: true)
        let merchant = Order.Merchant(
            displayName: displayName ?? "", merchantIdentifier: merchantIdentifier ?? "",
            url: url ?? URL(fileURLWithPath: "/"),
            address: reader.object("address", readAddress),
            businessChatURL: reader.url("businessChatURL"),
            contactURL: reader.url("contactURL"),
            emailAddress: reader.string("emailAddress"),
            logo: reader.file("logo", image: true),
            phoneNumber: reader.string("phoneNumber")
        )
        guard displayName != nil, merchantIdentifier != nil, url != nil else { return nil }
        return merchant
    }

    static func readAddress(_ reader: OrderObjectReader) -> Order.Address? {
        Order.Address(
            addressLines: reader.strings("addressLines"),
            administrativeArea: reader.string("administrativeArea"),
            countryCode: reader.code("countryCode", letters: 2, what: "an ISO 3166-1 country code"),
            locality: reader.string("locality"),
            postalCode: reader.string("postalCode"),
            subAdministrativeArea: reader.string("subAdministrativeArea"),
            subLocality: reader.string("subLocality")
        )
    }

    static func readApplication(_ reader: OrderObjectReader) -> Order.Application? {
        let storeIdentifier = reader.integer("storeIdentifier", required: true)
        let customProductPageIdentifier = reader.string("customProductPageIdentifier")
        let launchURL = reader.url("launchURL")
        guard let storeIdentifier else { return nil }
        return Order.Application(
            storeIdentifier: storeIdentifier, customProductPageIdentifier: customProductPageIdentifier, launchURL: launchURL)
    }

    static func readBarcode(_ reader: OrderObjectReader) -> Order.Barcode? {
        let format = reader.enumeration("format", required: true, as: Order.Barcode.Format.self)
        let message = reader.string("message", required: true)
        let messageEncoding = reader.string("messageEncoding")
        let altText = reader.string("altText")
        guard let format, let message else { return nil }
        return Order.Barcode(format: format, message: message, messageEncoding: messageEncoding, altText: altText)
    }

    static func readCustomer(_ reader: OrderObjectReader) -> Order.Customer? {
        Order.Customer(
            emailAddress: reader.string("emailAddress"),
            familyName: reader.string("familyName"),
            givenName: reader.string("givenName"),
            organizationName: reader.string("organizationName"),
            phoneNumber: reader.string("phoneNumber")
        )
    }

    static func readCurrencyAmount(_ reader: OrderObjectReader) -> Order.CurrencyAmount? {
        let amountPath = reader.path.appending("amount")
        var amount: Decimal?
        var scale: Int?
        switch reader.value("amount", required: true) {
        case .string(let text)?:
            // The rule is applied once; its sentence is made only for an amount that breaks it.
            if let value = Decimal(exactLiteral: text) {
                amount = value
                scale = Decimal.fractionDigits(ofLiteral: text)
            } else {
                reader.findings.record(.invalidValue(amountPath, reason: AmountLiteral.problem(text) ?? "not an amount"))
            }
        case .number(let literal)?:
            // Accepted, as Wallet does, but never through Double: the literal's digits are exact,
            // and the same rule as a string's holds (1e999999 is no amount however it is written).
            reader.findings.record(.numericAmount(amountPath))
            if let plain = AmountLiteral.plain(jsonNumber: literal), let value = Decimal(exactLiteral: plain) {
                amount = value
                // A number such as 1e2 has no fraction digits to keep; plain ones keep theirs.
                if plain == literal { scale = Decimal.fractionDigits(ofLiteral: literal) }
            } else {
                reader.findings.record(
                    .invalidValue(
                        amountPath,
                        reason:
                            "the number \(MessageText.quote(String(literal.prefix(40)))) is not a finite decimal amount with at most \(AmountLiteral.maximumIntegerDigits) digits before the point and \(AmountLiteral.maximumFractionDigits) after it"
                    ))
            }
        case let other?:
            reader.findings.record(.wrongType(amountPath, expected: "a decimal string", found: other.typeName))
        case nil:
            break
        }
        let currency = reader.code("currency", required: true, letters: 3, what: "an ISO 4217 currency code")
        guard let amount, let currency else { return nil }
        return Order.CurrencyAmount(amount: amount, currency: currency, scale: scale)
    }

    static func readLineItem(_ reader: OrderObjectReader) -> Order.LineItem? {
        let quantity = reader.decimal(
            "quantity", required: true, allowNumericString: true, range: 0...Decimal.greatestFiniteMagnitude)
        let title = reader.string("title", required: true)
        let image = reader.file("image", image: true)
        let price = reader.object("price", readCurrencyAmount)
        let subtitle = reader.string("subtitle")
        let gtin = reader.string("gtin")
        let sku = reader.string("sku")
        guard let quantity, let title else { return nil }
        return Order.LineItem(
            quantity: quantity, title: title, image: image, price: price, subtitle: subtitle, gtin: gtin, sku: sku)
    }

    static func readLocation(_ reader: OrderObjectReader) -> Order.Location? {
        let latitude = reader.double("latitude", required: true, range: -90...90)
        let longitude = reader.double("longitude", required: true, range: -180...180)
        let altitude = reader.double("altitude")
        guard let latitude, let longitude else { return nil }
        return Order.Location(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    static func readOrderProvider(_ reader: OrderObjectReader) -> Order.OrderProvider? {
        let displayName = reader.string("displayName", required: true)
        let url = reader.url("url", required: true)
        let dark = reader.file("trackingLogoNameDarkColorScheme", required: true, image: true)
        let light = reader.file("trackingLogoNameLightColorScheme", required: true, image: true)
        guard let displayName, let url, let dark, let light else { return nil }
        return Order.OrderProvider(
            displayName: displayName, url: url, trackingLogoNameDarkColorScheme: dark, trackingLogoNameLightColorScheme: light)
    }

    static func readPayment(_ reader: OrderObjectReader) -> Order.Payment? {
        let total = reader.object("total", required: true, readCurrencyAmount)
        let summaryItems = reader.objects("summaryItems") { item -> Order.SummaryItem? in
            let label = item.string("label", required: true)
            let value = item.object("value", required: true, readCurrencyAmount)
            guard let label, let value else { return nil }
            return Order.SummaryItem(label: label, value: value)
        }
        let transactions = reader.objects("transactions", readPaymentTransaction)
        let status = reader.enumeration("status", as: Order.Payment.Status.self)
        let paymentMethods = reader.strings("paymentMethods")
        let applePayTransactionIdentifiers = reader.strings("applePayTransactionIdentifiers")
        guard let total else { return nil }
        return Order.Payment(
            total: total, summaryItems: summaryItems, transactions: transactions, status: status,
            paymentMethods: paymentMethods, applePayTransactionIdentifiers: applePayTransactionIdentifiers)
    }

    static func readPaymentTransaction(_ reader: OrderObjectReader) -> Order.PaymentTransaction? {
        let amount = reader.object("amount", required: true, readCurrencyAmount)
        let createdAt = reader.timestamp("createdAt", required: true)
        let paymentMethod = reader.object("paymentMethod", required: true) { method -> Order.PaymentMethod? in
            method.string("displayName", required: true).map(Order.PaymentMethod.init(displayName:))
        }
        let status = reader.enumeration("status", required: true, as: Order.PaymentTransaction.Status.self)
        let transactionType = reader.enumeration(
            "transactionType", required: true, as: Order.PaymentTransaction.TransactionType.self)
        let applePayTransactionIdentifier = reader.string("applePayTransactionIdentifier")
        let receipt = reader.file("receipt")
        guard let amount, let createdAt, let paymentMethod, let status, let transactionType else { return nil }
        return Order.PaymentTransaction(
            amount: amount, createdAt: createdAt, paymentMethod: paymentMethod, status: status,
            transactionType: transactionType, applePayTransactionIdentifier: applePayTransactionIdentifier, receipt: receipt)
    }

    static func readFulfillment(_ reader: OrderObjectReader) -> Order.Fulfillment? {
        switch reader.string("fulfillmentType", required: true) {
        case "shipping": return readShippingFulfillment(reader).map(Order.Fulfillment.shipping)
        case "pickup": return readPickupFulfillment(reader).map(Order.Fulfillment.pickup)
        case let other?:
            reader.findings.record(
                .invalidValue(
                    reader.path.appending("fulfillmentType"),
                    reason: "\(MessageText.quote(other)) is not one of 'shipping', 'pickup'"))
            // Unknown kinds are not read further; their keys would all be reported as unknown.
            reader.acknowledge(contentsOf: reader.object.keys)
            return nil
        case nil:
            reader.acknowledge(contentsOf: reader.object.keys)
            return nil
        }
    }

    static func readShippingFulfillment(_ reader: OrderObjectReader) -> Order.ShippingFulfillment? {
        let fulfillmentIdentifier = reader.string("fulfillmentIdentifier", required: true)
        let status = reader.enumeration("status", required: true, as: Order.ShippingFulfillment.Status.self)
        let fulfillment = Order.ShippingFulfillment(
            fulfillmentIdentifier: fulfillmentIdentifier ?? "", status: status ?? .open,
            carrier: reader.string("carrier"),
            trackingNumber: reader.string("trackingNumber"),
            trackingURL: reader.url("trackingURL"),
            shippedAt: reader.timestamp("shippedAt"),
            deliveredAt: reader.timestamp("deliveredAt"),
            estimatedDeliveryAt: reader.timestamp("estimatedDeliveryAt"),
            estimatedDeliveryWindowDuration: reader.duration("estimatedDeliveryWindowDuration"),
            shippingType: reader.enumeration("shippingType", as: Order.ShippingFulfillment.ShippingType.self),
            lineItems: reader.objects("lineItems", readLineItem),
            notes: reader.string("notes"),
            recipient: reader.object("recipient", readRecipient),
            statusDescription: reader.string("statusDescription")
        )
        guard fulfillmentIdentifier != nil, status != nil else { return nil }
        return fulfillment
    }

    static func readRecipient(_ reader: OrderObjectReader) -> Order.Recipient? {
        Order.Recipient(
            address: reader.object("address", readAddress),
            familyName: reader.string("familyName"),
            givenName: reader.string("givenName"),
            organizationName: reader.string("organizationName")
        )
    }

    static func readPickupFulfillment(_ reader: OrderObjectReader) -> Order.PickupFulfillment? {
        let displayName = reader.string("displayName", required: true)
        let fulfillmentIdentifier = reader.string("fulfillmentIdentifier", required: true)
        let status = reader.enumeration("status", required: true, as: Order.PickupFulfillment.Status.self)
        let fulfillment = Order.PickupFulfillment(
            displayName: displayName ?? "", fulfillmentIdentifier: fulfillmentIdentifier ?? "", status: status ?? .open,
            address: reader.object("address", readAddress),
            barcode: reader.object("barcode", readBarcode),
            location: reader.object("location", readLocation),
            lineItems: reader.objects("lineItems", readLineItem),
            notes: reader.string("notes"),
            pickupAt: reader.timestamp("pickupAt"),
            pickedUpAt: reader.timestamp("pickedUpAt"),
            pickupWindowDuration: reader.duration("pickupWindowDuration"),
            statusDescription: reader.string("statusDescription")
        )
        guard displayName != nil, fulfillmentIdentifier != nil, status != nil else { return nil }
        return fulfillment
    }

    static func readReturn(_ reader: OrderObjectReader) -> Order.Return? {
        let returnIdentifier = reader.string("returnIdentifier", required: true)
        let status = reader.enumeration("status", required: true, as: Order.Return.Status.self)
        let lineItems = reader.array("lineItems") { value, _ in value }
        let result = Order.Return(
            returnIdentifier: returnIdentifier ?? "", status: status ?? .open,
            returnNumber: reader.string("returnNumber"),
            carrier: reader.string("carrier"),
            initiatedAt: reader.timestamp("initiatedAt"),
            dropOffBy: reader.timestamp("dropOffBy"),
            returnedAt: reader.timestamp("returnedAt"),
            lineItems: lineItems,
            notes: reader.string("notes"),
            returnLabel: reader.file("returnLabel"),
            returnManagementURL: reader.url("returnManagementURL"),
            statusDescription: reader.string("statusDescription")
        )
        guard returnIdentifier != nil, status != nil else { return nil }
        return result
    }

    static func readReturnInfo(_ reader: OrderObjectReader) -> Order.ReturnInfo? {
        let returnPolicyURL = reader.url("returnPolicyURL", required: true)
        let info = Order.ReturnInfo(
            returnPolicyURL: returnPolicyURL ?? URL(fileURLWithPath: "/"),
            displayCountdown: reader.bool("displayCountdown"),
            returnDeadline: reader.timestamp("returnDeadline"),
            returnManagementURL: reader.url("returnManagementURL"),
            returnPolicyDescription: reader.string("returnPolicyDescription")
        )
        guard returnPolicyURL != nil else { return nil }
        return info
    }
}
