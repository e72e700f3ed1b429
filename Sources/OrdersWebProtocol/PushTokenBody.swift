import Foundation
import WalletPrimitives

/// The body of a registration: `{"pushToken": "<APNs device token>"}`.
public enum PushTokenBody {
    /// Longer than any APNs token (64 hex digits today; Apple says not to rely on the length).
    public static let maximumLength = 400

    public static func parse(_ body: Data) throws(ServiceRequestError) -> String {
        let value: JSONValue
        do {
            value = try JSONParser(maximumDepth: 8).parse(body).value
        } catch {
            throw .malformedBody(reason: error.sentence(about: "the registration body"), path: error.path)
        }
        guard case .object(let members) = value else {
            throw .malformedBody(reason: "expected {\"pushToken\": \"...\"}, found \(value.typeName)", path: nil)
        }
        guard case .string(let token)? = members["pushToken"] else {
            let found = members["pushToken"].map { "found \($0.typeName)" } ?? "missing"
            throw .malformedBody(reason: "pushToken must be a string (\(found))", path: "pushToken")
        }
        guard !token.isEmpty, token.utf8.count <= maximumLength,
            !token.unicodeScalars.contains(where: MessageText.isControl)
        else {
            throw .malformedBody(
                reason: "pushToken must be 1 to \(maximumLength) bytes without control characters", path: "pushToken")
        }
        return token
    }
}
