/// Enums whose Codable form is the case name (`"pointOfSale"`), as the project's rule for
/// FinanceKit's types says; Apple leaves their Codable format undocumented.
public protocol NamedCases: CaseIterable, RawRepresentable, Codable where RawValue == Int16, AllCases == [Self] {}

extension NamedCases {
    /// The case's name, e.g. `pointOfSale`.
    public var name: String { String(describing: self) }

    /// The case called `name`, if any.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let value = Self(name: name) else {
            let allowed = Self.allCases.map(\.name).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(name)' is not one of \(allowed)")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
