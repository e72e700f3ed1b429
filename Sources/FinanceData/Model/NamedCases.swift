import WalletPrimitives

/// Enums whose Codable form is the case name (`"pointOfSale"`), as the project's rule for
/// FinanceKit's types says; Apple leaves their Codable format undocumented.
///
/// Conformers keep their names in a table built once (`static let caseNames = CaseNames<Self>()`):
/// `String(describing:)` reflects, and looking a name up that way cost a tenth of an import.
public protocol NamedCases: CaseIterable, RawRepresentable, Codable, Hashable, Sendable
where RawValue == Int16, AllCases == [Self] {
    static var caseNames: CaseNames<Self> { get }
}

/// The names of an enum's cases, both ways.
public struct CaseNames<Value: NamedCases>: Sendable {
    let byName: [String: Value]
    let names: [Value: String]

    public init() {
        names = Dictionary(uniqueKeysWithValues: Value.allCases.map { ($0, String(describing: $0)) })
        byName = Dictionary(uniqueKeysWithValues: names.map { ($1, $0) })
    }
}

extension NamedCases {
    /// The case's name, e.g. `pointOfSale`.
    public var name: String { Self.caseNames.names[self] ?? String(describing: self) }

    /// The case called `name`, if any.
    public init?(name: String) {
        guard let match = Self.caseNames.byName[name] else { return nil }
        self = match
    }

    public init(from decoder: any Decoder) throws {
        self = try decoder.decodeText(Self.init(name:), expected: "one of " + Self.allCases.map(\.name).joined(separator: ", "))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
