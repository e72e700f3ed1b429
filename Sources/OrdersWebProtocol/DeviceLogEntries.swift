import Foundation
import WalletPrimitives

/// The body of `POST /v1/log`: `{"logs": ["…"]}` (Apple's LogEntries shape) or a bare array of
/// strings, as some clients send. Non-string entries are written as their JSON text.
public enum DeviceLogEntries {
    public static func parse(_ body: Data) throws(ServiceRequestError) -> [String] {
        let value: JSONValue
        do {
            value = try JSONParser(maximumDepth: 16).parse(body).value
        } catch {
            throw .malformedBody(reason: error.sentence(about: "the log body"), path: error.path)
        }
        let entries: [JSONValue]
        switch value {
        case .array(let items):
            entries = items
        case .object(let members):
            guard case .array(let items)? = members["logs"] else {
                throw .malformedBody(reason: "expected {\"logs\": [...]} or an array of strings", path: "logs")
            }
            entries = items
        default:
            throw .malformedBody(reason: "expected {\"logs\": [...]} or an array of strings", path: nil)
        }
        return entries.map { entry in
            if case .string(let text) = entry { return text }
            return entry.serialized
        }
    }
}
