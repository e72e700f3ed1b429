/// What an event and a fulfillment are matched on: the tracking number with spaces, hyphens and
/// case taken out, as carriers and merchants write the same number differently (`1Z 999 AA1`,
/// `1z999aa1`).
///
/// The carrier is not part of the key: providers name carriers their own way (`ups`, `UPS`,
/// `United Parcel Service`) and an order's `carrier` is free text. Two carriers' numbers rarely
/// collide, and an event is applied only to orders of the endpoint's merchant, within the order
/// types its configuration names.
public struct TrackingKey: Sendable, Hashable, CustomStringConvertible {
    /// The normalized number: ASCII letters upper-cased, every character but letters and digits
    /// dropped.
    public let normalized: String

    public init(trackingNumber: String) {
        var scalars = String.UnicodeScalarView()
        for scalar in trackingNumber.unicodeScalars where scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
            scalars.append(
                contentsOf: scalar.isASCII ? String(scalar).uppercased().unicodeScalars : String(scalar).unicodeScalars)
        }
        normalized = String(scalars)
    }

    /// Whether the number has anything to match on.
    public var isEmpty: Bool { normalized.isEmpty }

    public var description: String { normalized }
}

extension Order {
    /// The keys of the parcels the order's shipping fulfillments name, each once, sorted: what a
    /// store indexes so that a tracking event finds the orders it concerns (docs/tracking.md).
    public var trackingKeys: [TrackingKey] {
        var keys = Set<TrackingKey>()
        for case .shipping(let fulfillment) in fulfillments ?? [] {
            guard let number = fulfillment.trackingNumber else { continue }
            let key = TrackingKey(trackingNumber: number)
            if !key.isEmpty { keys.insert(key) }
        }
        return keys.sorted { $0.normalized < $1.normalized }
    }
}
