/// A parsed JSON document that keeps what `JSONSerialization` throws away: the order of object
/// members and the literal text of numbers (so `"12.50"` and `12.50` become exact `Decimal`s).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number exactly as written, e.g. `12.50` or `1e3`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The JSON type's name, for messages ("expected a string, found an array").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object: members in document order; keys are unique (the parser rejects duplicates).
///
/// Equality ignores member order, as JSON does; ``JSONValue/serialized`` keeps it.
public struct JSONObject: Sendable, Hashable {
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// Objects in order documents are small, so lookups by key scan rather than hash.
    public internal(set) var members: [Member]

    public init(_ members: [Member] = []) {
        self.members = members
    }

    public var keys: [String] {
        members.map(\.key)
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        for member in members.sorted(by: { $0.key < $1.key }) { hasher.combine(member) }
    }
}
