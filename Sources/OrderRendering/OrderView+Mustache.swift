import Mustache

// Every name the templates read, answered by a switch: Mustache's default lookup reflects each
// value with Mirror on every `{{name}}`, which was three quarters of a render (Benchmarks,
// OrderPages). A nil answer is absent, as for Mirror: Mustache then climbs to the enclosing value,
// which is why the templates look optionals up as `{{#.name}}`.

extension OrderView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "merchant": merchant
        case "heading": heading
        case "status": status
        case "statusLabel": statusLabel
        case "statusDescription": statusDescription
        case "details": details
        case "provider": provider
        case "barcode": barcode
        case "fulfillments": fulfillments
        case "lineItems": lineItems
        case "payment": payment
        case "returns": returns
        case "manage": manage
        case "words": words
        default: nil
        }
    }
}

extension OrderView.Link: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "href": href
        case "text": text
        default: nil
        }
    }
}

extension OrderView.Field: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "value": value
        case "link": link
        case "identifier": isIdentifier
        default: nil
        }
    }
}

extension OrderView.Merchant: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "logo": logo
        case "link": link
        case "contact": contact
        default: nil
        }
    }
}

extension OrderView.Provider: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "link": link
        case "before": before
        case "after": after
        case "logoLight": logoLight
        case "logoDark": logoDark
        default: nil
        }
    }
}

extension OrderView.Barcode: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "svg": svg
        case "message": message
        case "caption": caption
        default: nil
        }
    }
}

extension OrderView.LineItem: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "subtitle": subtitle
        case "image": image
        case "quantity": quantity
        case "price": price
        default: nil
        }
    }
}

extension OrderView.Fulfillment: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "kind": kind
        case "heading": heading
        case "status": status
        case "statusLabel": statusLabel
        case "statusDescription": statusDescription
        case "details": details
        case "address": address
        case "links": links
        case "barcode": barcode
        case "lineItems": lineItems
        default: nil
        }
    }
}

extension OrderView.Payment: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "summary": summary
        case "total": total
        case "statusLabel": statusLabel
        case "methods": methods
        case "transactions": transactions
        default: nil
        }
    }
}

extension OrderView.Returns: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "details": details
        case "links": links
        case "returns": returns
        default: nil
        }
    }
}

extension OrderView.Words: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "items": items
        case "payment": payment
        case "total": total
        case "transactions": transactions
        case "returns": returns
        default: nil
        }
    }
}
