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

    /// The entries as one bounded piece of a log line: `device log, 2 entries: "first", "second"`,
    /// each entry a JSON string (quotes and controls escaped, so entries cannot run together or
    /// end the line), at most `maximumLength` bytes, saying what did not fit.
    ///
    /// ```swift
    /// DeviceLogEntries.summary(of: ["a", "b\n"], maximumLength: 2048)  // device log, 2 entries: "a", "b\\n"
    /// ```
    public static func summary(of entries: [String], maximumLength: Int) -> String {
        var text = "device log, \(entries.count) \(entries.count == 1 ? "entry" : "entries"):"
        for (index, entry) in entries.enumerated() {
            let quoted = (index == 0 ? " " : ", ") + JSONValue.string(entry).serialized
            let later = entries.count - index - 1
            // Room is kept for the note that would follow if a later entry did not fit.
            let note = later > 0 ? " … (\(later) more not written)" : ""
            if text.utf8.count + quoted.utf8.count + note.utf8.count <= maximumLength {
                text += quoted
                continue
            }
            // This entry is cut (ending in "…", 3 bytes) or left out; the note counts it.
            let cut = " … (\(later + 1) more not written)"
            let room = maximumLength - text.utf8.count - cut.utf8.count - "…".utf8.count
            var piece = Array(quoted.utf8.prefix(max(0, room)))
            while !piece.isEmpty, String(validating: piece, as: UTF8.self) == nil { piece.removeLast() }
            return text + String(decoding: piece, as: UTF8.self) + (piece.isEmpty ? "" : "…") + cut
        }
        return text
    }
}
