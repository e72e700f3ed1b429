import Foundation
import WalletPrimitives

/// An object of a tracking body read field by field, each refusal naming its JSON path.
///
/// Providers add fields at will, so unknown members are ignored; a field the service reads must
/// have the documented type, and strings are bounded (``TrackingLimits``) before they reach an
/// order.
struct EventFields {
    let object: JSONObject
    let path: JSONPath

    /// The document's top-level object.
    static func document(_ body: Data) throws(TrackingError) -> EventFields {
        guard body.count <= TrackingLimits.maximumBodySize else {
            throw .bodyTooLarge(size: body.count, limit: TrackingLimits.maximumBodySize)
        }
        let value: JSONValue
        do {
            value = try JSONParser(maximumDepth: TrackingLimits.maximumDepth).parse(body).value
        } catch {
            throw .invalidBody(path: error.jsonPath.description, reason: error.sentence(about: "the body"))
        }
        guard case .object(let object) = value else {
            throw .invalidBody(path: "", reason: "expected an object, found \(value.typeName)")
        }
        return EventFields(object: object, path: .root)
    }

    private func refuse(_ key: String, _ reason: String) -> TrackingError {
        .invalidBody(path: path.appending(key).description, reason: reason)
    }

    /// The member `key`, nil when absent or null.
    private func value(_ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    func object(_ key: String) throws(TrackingError) -> EventFields {
        guard let fields = try optionalObject(key) else { throw refuse(key, "a required object is missing") }
        return fields
    }

    func optionalObject(_ key: String) throws(TrackingError) -> EventFields? {
        guard let value = value(key) else { return nil }
        guard case .object(let object) = value else { throw refuse(key, "expected an object, found \(value.typeName)") }
        return EventFields(object: object, path: path.appending(key))
    }

    func string(_ key: String) throws(TrackingError) -> String {
        guard let text = try optionalString(key) else { throw refuse(key, "a required string is missing") }
        return text
    }

    /// A string of at most ``TrackingLimits/maximumTextLength`` Unicode scalars (code points, as
    /// JSON Schema's `maxLength` counts), without U+0000; an empty one reads as absent.
    func optionalString(_ key: String) throws(TrackingError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw refuse(key, "expected a string, found \(value.typeName)") }
        guard text.unicodeScalars.count <= TrackingLimits.maximumTextLength else {
            throw refuse(key, "longer than \(TrackingLimits.maximumTextLength) characters")
        }
        guard !text.unicodeScalars.contains("\u{0}") else { throw refuse(key, "contains U+0000") }
        return text.isEmpty ? nil : text
    }

    /// An integer number of seconds since 1970 (AfterShip's `ts`).
    func unixTime(_ key: String) throws(TrackingError) -> Date {
        guard let value = value(key) else { throw refuse(key, "a required timestamp is missing") }
        guard case .number(let text) = value, let seconds = Int64(text), seconds >= 0, seconds < 253_402_300_800 else {
            throw refuse(key, "expected whole seconds since 1970, found \(MessageText.quote(value.debugText))")
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// An RFC 3339 date-time with its offset (`2026-12-07T10:15:00Z`, `…+01:00`).
    func optionalTimestamp(_ key: String) throws(TrackingError) -> Date? {
        guard let text = try optionalString(key) else { return nil }
        guard let timestamp = RFC3339Timestamp(text) else {
            throw refuse(key, "expected an RFC 3339 date-time with an offset, found \(MessageText.quote(text))")
        }
        return timestamp.date
    }

    func timestamp(_ key: String) throws(TrackingError) -> Date {
        guard let date = try optionalTimestamp(key) else { throw refuse(key, "a required date-time is missing") }
        return date
    }

    /// A delivery estimate: an RFC 3339 date-time, or a calendar date (`2026-12-09`), which
    /// becomes that day at 12:00 UTC — the same calendar day wherever the customer is, between
    /// UTC−12 and UTC+11 (docs/tracking.md, "Estimates given as a date").
    func optionalEstimate(_ key: String) throws(TrackingError) -> Date? {
        guard let text = try optionalString(key) else { return nil }
        if let timestamp = RFC3339Timestamp(text) { return timestamp.date }
        if text.utf8.count == 10, let noon = RFC3339Timestamp(text + "T12:00:00Z") { return noon.date }
        throw refuse(key, "expected a date (YYYY-MM-DD) or an RFC 3339 date-time, found \(MessageText.quote(text))")
    }

    /// The elements of the array `key` that are objects, each with its path; absent is empty.
    func objects(_ key: String) throws(TrackingError) -> [EventFields] {
        guard let value = value(key) else { return [] }
        guard case .array(let elements) = value else { throw refuse(key, "expected an array, found \(value.typeName)") }
        guard elements.count <= TrackingLimits.maximumCheckpoints else {
            throw refuse(key, "more than \(TrackingLimits.maximumCheckpoints) elements")
        }
        var fields: [EventFields] = []
        for (index, element) in elements.enumerated() {
            guard case .object(let object) = element else {
                throw .invalidBody(
                    path: path.appending(key).appending(index: index).description,
                    reason: "expected an object, found \(element.typeName)")
            }
            fields.append(EventFields(object: object, path: path.appending(key).appending(index: index)))
        }
        return fields
    }
}

extension JSONValue {
    /// A short text of a scalar for a message.
    fileprivate var debugText: String {
        switch self {
        case .number(let text), .string(let text): text
        default: typeName
        }
    }
}
