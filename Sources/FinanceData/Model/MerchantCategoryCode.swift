/// An ISO 18245 merchant category code, e.g. 5411 (grocery stores). Codable as a number.
public struct MerchantCategoryCode: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible,
    LosslessStringConvertible
{
    public let rawValue: Int16

    public init(rawValue: Int16) {
        self.rawValue = rawValue
    }

    /// From a decimal string such as `"5411"`; nil when it is not a number from 0 to 9999.
    public init?(_ description: String) {
        guard let value = Int16(description), (0...9999).contains(value) else { return nil }
        rawValue = value
    }

    public var description: String { String(rawValue) }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int16.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
