import Foundation
import WalletPrimitives

/// The body of `PUT /finance/v1/background-delivery`:
/// `{"types": ["transactions", …], "frequency": "hourly", "url": "https://…"}`. Shapes only;
/// names are the route's to check.
public struct DeliveryRegistrationBody: Sendable, Hashable {
    /// The largest body read, in bytes.
    public static let maximumSize = 4_096
    /// Names in `types`, at most (FinanceKit has three data types).
    public static let maximumTypes = 8

    public var types: [String]
    public var frequency: String
    public var url: String

    public init(types: [String], frequency: String, url: String) {
        self.types = types
        self.frequency = frequency
        self.url = url
    }

    public static func parse(_ body: Data) throws(ServiceRequestError) -> DeliveryRegistrationBody {
        let value: JSONValue
        do {
            value = try JSONParser(maximumDepth: 4).parse(body).value
        } catch {
            throw .malformedBody(reason: error.sentence(about: "the registration"), path: error.path)
        }
        guard case .object(let members) = value else {
            throw .malformedBody(
                reason: "expected {\"types\": [...], \"frequency\": \"...\", \"url\": \"...\"}, found \(value.typeName)",
                path: nil)
        }
        for name in members.keys where !["types", "frequency", "url"].contains(name) {
            throw .malformedBody(reason: "unknown member \(MessageText.quote(name))", path: name)
        }
        guard case .array(let items)? = members["types"] else {
            throw .malformedBody(reason: "types must be an array of data type names (\(found(members["types"])))", path: "types")
        }
        guard !items.isEmpty, items.count <= maximumTypes else {
            throw .malformedBody(reason: "types must name 1 to \(maximumTypes) data types", path: "types")
        }
        var types: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let name) = item else {
                throw .malformedBody(
                    reason: "a data type name must be a string (found \(item.typeName))", path: "types[\(index)]")
            }
            types.append(name)
        }
        return DeliveryRegistrationBody(
            types: types, frequency: try text("frequency", in: members, limit: 32),
            url: try text("url", in: members, limit: 2_048))
    }

    private static func text(_ name: String, in members: JSONObject, limit: Int) throws(ServiceRequestError) -> String {
        guard case .string(let value)? = members[name] else {
            throw .malformedBody(reason: "\(name) must be a string (\(found(members[name])))", path: name)
        }
        guard value.utf8.count <= limit else { throw .malformedBody(reason: "\(name) is longer than \(limit) bytes", path: name) }
        return value
    }

    private static func found(_ value: JSONValue?) -> String {
        value.map { "found \($0.typeName)" } ?? "missing"
    }
}
