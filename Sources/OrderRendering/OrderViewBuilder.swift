import Foundation
import OrderPackage

/// Builds an ``OrderView``: every string of order.json through the chosen `order.strings`
/// table (a key shows its value, other text shows as it is), amounts and times through
/// ``OrderFormatting``, URLs through ``SafeLink``, images through ``OrderImages``.
struct OrderViewBuilder {
    let strings: OrderLocalizations.Table
    let format: OrderFormatting
    let images: OrderImages
    /// The page's own words.
    let words: OrderPageText
    private var labels: StatusLabels { StatusLabels(text: words) }

    private func text(_ value: String) -> String { strings.text(for: value) }
    private func text(_ value: String?) -> String? { value.map(strings.text(for:)) }

    private func link(_ url: URL?, text label: String? = nil) -> OrderView.Link? {
        guard let href = SafeLink.href(url) else { return nil }
        return OrderView.Link(href: href, text: label ?? url?.host ?? href)
    }

    func build(_ order: Order) -> OrderView {
        let merchantName = text(order.merchant.displayName)
        let number = text(order.orderNumber) ?? order.orderIdentifier
        var details = [OrderView.Field(label: words["ordered"], value: format.day(order.createdAt))]
        if order.updatedAt != order.createdAt {
            details.append(OrderView.Field(label: words["updated"], value: format.dateTime(order.updatedAt)))
        }
        let heading = words["order.heading", number]
        let statusLabel = labels.order(order.status)
        return OrderView(
            title: "\(merchantName) – \(heading)",
            merchant: merchant(order.merchant, name: merchantName),
            heading: heading,
            status: order.status.rawValue,
            statusLabel: statusLabel,
            statusDescription: StatusLabels.description(text(order.statusDescription), besides: statusLabel),
            details: details,
            provider: order.orderProvider.map(provider),
            barcode: order.barcode.map(barcode),
            fulfillments: (order.fulfillments ?? []).enumerated().map { fulfillment($1, index: $0) },
            lineItems: (order.lineItems ?? []).map(lineItem),
            payment: order.payment.map(payment),
            returns: returns(order),
            manage: link(order.orderManagementURL, text: words["manageOrder"]),
            words: OrderView.Words(words))
    }

    private func merchant(_ merchant: Order.Merchant, name: String) -> OrderView.Merchant {
        var contact: [OrderView.Field] = []
        if let address = merchant.address {
            contact.append(OrderView.Field(label: words["address"], value: lines(of: address).joined(separator: ", ")))
        }
        if let phone = merchant.phoneNumber { contact.append(OrderView.Field(label: words["phone"], value: text(phone))) }
        if let email = merchant.emailAddress { contact.append(OrderView.Field(label: words["email"], value: text(email))) }
        if let contactLink = link(merchant.contactURL, text: words["contactMerchant", name]) {
            contact.append(OrderView.Field(label: words["support"], value: contactLink.text, link: contactLink))
        }
        if let chat = link(merchant.businessChatURL, text: words["messageMerchant", name]) {
            contact.append(OrderView.Field(label: words["messages"], value: chat.text, link: chat))
        }
        return OrderView.Merchant(
            name: name, logo: images.dataURI(merchant.logo), link: link(merchant.url), contact: contact)
    }

    private func provider(_ provider: Order.OrderProvider) -> OrderView.Provider {
        let name = text(provider.displayName)
        let tracked = words["trackedBy", "\u{0}"].components(separatedBy: "\u{0}")
        return OrderView.Provider(
            name: name, link: link(provider.url), before: tracked.first ?? "", after: tracked.dropFirst().joined(),
            logoLight: images.dataURI(provider.trackingLogoNameLightColorScheme),
            logoDark: images.dataURI(provider.trackingLogoNameDarkColorScheme))
    }

    private func barcode(_ barcode: Order.Barcode) -> OrderView.Barcode {
        let caption = text(barcode.altText) ?? barcode.message
        return OrderView.Barcode(
            svg: BarcodeSVG.svg(for: barcode, label: "\(labels.barcode(barcode.format)): \(caption)"),
            message: barcode.message, caption: caption)
    }

    private func lineItem(_ item: Order.LineItem) -> OrderView.LineItem {
        OrderView.LineItem(
            title: text(item.title), subtitle: text(item.subtitle), image: images.dataURI(item.image),
            quantity: words["quantity", format.quantity(item.quantity)], price: item.price.map(format.amount))
    }

    private func fulfillment(_ fulfillment: Order.Fulfillment, index: Int) -> OrderView.Fulfillment {
        switch fulfillment {
        case .shipping(let shipping): self.shipping(shipping, index: index)
        case .pickup(let pickup): self.pickup(pickup, index: index)
        }
    }

    private func shipping(_ shipping: Order.ShippingFulfillment, index: Int) -> OrderView.Fulfillment {
        var details: [OrderView.Field] = []
        if let carrier = shipping.carrier { details.append(OrderView.Field(label: words["carrier"], value: text(carrier))) }
        if let number = shipping.trackingNumber {
            details.append(
                OrderView.Field(
                    label: words["trackingNumber"], value: number, link: link(shipping.trackingURL, text: number),
                    isIdentifier: true))
        }
        if let shipped = shipping.shippedAt {
            details.append(OrderView.Field(label: words["shipped"], value: format.dateTime(shipped)))
        }
        if let estimated = shipping.estimatedDeliveryAt, shipping.deliveredAt == nil {
            let value =
                shipping.estimatedDeliveryWindowDuration.map { format.window(from: estimated, lasting: $0) }
                ?? format.dateTime(estimated)
            details.append(OrderView.Field(label: words["estimatedDelivery"], value: value))
        }
        if let delivered = shipping.deliveredAt {
            details.append(OrderView.Field(label: words["delivered"], value: format.dateTime(delivered)))
        }
        if let recipient = shipping.recipient {
            let name = [recipient.givenName, recipient.familyName].compactMap(text).joined(separator: " ")
            let who = [name.isEmpty ? nil : name, text(recipient.organizationName)].compactMap { $0 }
            if !who.isEmpty { details.append(OrderView.Field(label: words["recipient"], value: who.joined(separator: ", "))) }
        }
        if let notes = shipping.notes { details.append(OrderView.Field(label: words["notes"], value: text(notes))) }
        let statusLabel = labels.shipping(shipping.status)
        return OrderView.Fulfillment(
            id: "fulfillment-\(index + 1)", kind: "shipping",
            heading: shipping.shippingType == .delivery ? words["delivery"] : words["shipment"],
            status: shipping.status.rawValue, statusLabel: statusLabel,
            statusDescription: StatusLabels.description(text(shipping.statusDescription), besides: statusLabel), details: details,
            address: shipping.recipient?.address.map(lines) ?? [],
            links: [link(shipping.trackingURL, text: words["trackShipment"])].compactMap { $0 }, barcode: nil,
            lineItems: (shipping.lineItems ?? []).map(lineItem))
    }

    private func pickup(_ pickup: Order.PickupFulfillment, index: Int) -> OrderView.Fulfillment {
        var details: [OrderView.Field] = []
        if let at = pickup.pickupAt, pickup.pickedUpAt == nil {
            let value = pickup.pickupWindowDuration.map { format.window(from: at, lasting: $0) } ?? format.dateTime(at)
            details.append(OrderView.Field(label: words["pickup"], value: value))
        }
        if let picked = pickup.pickedUpAt {
            details.append(OrderView.Field(label: words["pickedUp"], value: format.dateTime(picked)))
        }
        if let notes = pickup.notes { details.append(OrderView.Field(label: words["notes"], value: text(notes))) }
        let map = pickup.location.flatMap { location in
            link(
                URL(string: "https://maps.apple.com/?ll=\(location.latitude),\(location.longitude)"),
                text: words["showOnMap"])
        }
        let statusLabel = labels.pickup(pickup.status)
        return OrderView.Fulfillment(
            id: "fulfillment-\(index + 1)", kind: "pickup", heading: words["pickupAt", text(pickup.displayName)],
            status: pickup.status.rawValue, statusLabel: statusLabel,
            statusDescription: StatusLabels.description(text(pickup.statusDescription), besides: statusLabel), details: details,
            address: pickup.address.map(lines) ?? [], links: [map].compactMap { $0 }, barcode: pickup.barcode.map(barcode),
            lineItems: (pickup.lineItems ?? []).map(lineItem))
    }

    private func payment(_ payment: Order.Payment) -> OrderView.Payment {
        var methods = (payment.paymentMethods ?? []).map(text)
        for transaction in payment.transactions ?? [] {
            let name = text(transaction.paymentMethod.displayName)
            if !methods.contains(name) { methods.append(name) }
        }
        return OrderView.Payment(
            summary: (payment.summaryItems ?? []).map {
                OrderView.Field(label: text($0.label), value: format.amount($0.value))
            },
            total: format.amount(payment.total), statusLabel: payment.status.map(labels.payment),
            methods: methods.isEmpty ? nil : words["paidWith", methods.joined(separator: ", ")],
            transactions: (payment.transactions ?? []).map { transaction in
                let kind = transaction.transactionType == .refund ? words["refund"] : words["purchase"]
                return OrderView.Field(
                    label: "\(kind), \(format.dateTime(transaction.createdAt))",
                    value: "\(format.amount(transaction.amount)) · \(labels.transaction(transaction.status))")
            })
    }

    private func returns(_ order: Order) -> OrderView.Returns? {
        guard order.returnInfo != nil || !(order.returns ?? []).isEmpty else { return nil }
        var details: [OrderView.Field] = []
        var links: [OrderView.Link] = []
        if let info = order.returnInfo {
            if let policy = info.returnPolicyDescription {
                details.append(OrderView.Field(label: words["policy"], value: text(policy)))
            }
            if let deadline = info.returnDeadline {
                details.append(OrderView.Field(label: words["returnBy"], value: format.dateTime(deadline)))
            }
            links += [
                link(info.returnPolicyURL, text: words["returnPolicy"]),
                link(info.returnManagementURL, text: words["startReturn"]),
            ]
            .compactMap { $0 }
        }
        let returns = (order.returns ?? []).enumerated().map { index, item in
            var fields: [OrderView.Field] = []
            if let number = item.returnNumber {
                fields.append(OrderView.Field(label: words["returnNumber"], value: text(number), isIdentifier: true))
            }
            if let carrier = item.carrier { fields.append(OrderView.Field(label: words["carrier"], value: text(carrier))) }
            if let initiated = item.initiatedAt {
                fields.append(OrderView.Field(label: words["started"], value: format.dateTime(initiated)))
            }
            if let dropOff = item.dropOffBy {
                fields.append(OrderView.Field(label: words["dropOffBy"], value: format.dateTime(dropOff)))
            }
            if let returned = item.returnedAt {
                fields.append(OrderView.Field(label: words["returned"], value: format.dateTime(returned)))
            }
            if let notes = item.notes { fields.append(OrderView.Field(label: words["notes"], value: text(notes))) }
            let statusLabel = labels.returned(item.status)
            return OrderView.Fulfillment(
                id: "return-\(index + 1)", kind: "return",
                heading: words["returnHeading", text(item.returnNumber) ?? "\(index + 1)"],
                status: item.status.rawValue, statusLabel: statusLabel,
                statusDescription: StatusLabels.description(text(item.statusDescription), besides: statusLabel), details: fields,
                address: [], links: [link(item.returnManagementURL, text: words["manageReturn"])].compactMap { $0 }, barcode: nil,
                lineItems: [])
        }
        return OrderView.Returns(details: details, links: links, returns: returns)
    }

    /// An address as lines: street lines, then the locality line, then the country.
    private func lines(of address: Order.Address) -> [String] {
        var lines = (address.addressLines ?? []).map(text)
        if let sub = address.subLocality { lines.append(text(sub)) }
        let locality = [address.postalCode, address.locality].compactMap(text).joined(separator: " ")
        if !locality.isEmpty { lines.append(locality) }
        let area = [address.subAdministrativeArea, address.administrativeArea].compactMap(text).joined(separator: ", ")
        if !area.isEmpty { lines.append(area) }
        if let country = address.countryCode { lines.append(format.country(country)) }
        return lines
    }
}
