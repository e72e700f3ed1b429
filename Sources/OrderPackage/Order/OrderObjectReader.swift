import Foundation
import WalletPrimitives

/// Reads one JSON object of `order.json`: each accessor checks a key's presence and type, records
/// any problem with its JSON path, and returns the value only when it is usable.
///
/// `null` counts as absent. Keys never asked for are reported as unknown by ``finish()``.
final class OrderObjectReader {
    let object: JSONObject
    let path: JSONPath
    let findings: OrderFindings
    /// Which members an accessor asked for, by position (objects are small: a scan, no hashing).
    private var asked: [Bool]
    /// Each member's key length in bytes, -1 for a key that is not ASCII.
    private let keyLengths: [Int]

    init?(_ value: JSONValue, at path: JSONPath, findings: OrderFindings) {
        guard case .object(let object) = value else {
            findings.record(.wrongType(path, expected: "an object", found: value.typeName))
            return nil
        }
        self.object = object
        self.path = path
        self.findings = findings
        asked = Array(repeating: false, count: object.members.count)
        keyLengths = object.members.map { member in
            member.key.utf8.allSatisfy { $0 < 0x80 } ? member.key.utf8.count : -1
        }
    }

    /// Marks keys as part of the schema without reading them (e.g. a discriminator).
    func acknowledge(contentsOf keys: [String]) {
        for key in keys { _ = ask(key) }
    }

    /// Warns about every key that no accessor asked for.
    func finish() {
        // A key with a control character is an error of its own (``OrderError/invalidKey(_:)``).
        for (member, asked) in zip(object.members, asked) where !asked && !OrderValidator.hasControlCharacter(member.key) {
            findings.record(.unknownKey(path.appending(member.key)))
        }
    }

    /// Marks every member named `key` as asked for; the first one's value.
    private func ask(_ key: String) -> JSONValue? {
        var found: JSONValue?
        // Most members differ in length from the key asked for (the schema's keys are ASCII):
        // they are passed over without comparing strings. A non-ASCII key is always compared, as
        // it may be canonically equivalent to the key asked for.
        let length = key.utf8.count
        for (index, member) in object.members.enumerated() {
            let memberLength = keyLengths[index]
            guard memberLength == length || memberLength < 0, member.key == key else { continue }
            asked[index] = true
            if found == nil { found = member.value }
        }
        return found
    }

    func value(_ key: String, required: Bool) -> JSONValue? {
        let value = ask(key)
        if case .null? = value { return absent(key, required: required) }
        guard let value else { return absent(key, required: required) }
        return value
    }

    private func absent(_ key: String, required: Bool) -> JSONValue? {
        if required { findings.record(.missingKey(path.appending(key))) }
        return nil
    }

    func string(_ key: String, required: Bool = false) -> String? {
        guard let value = value(key, required: required) else { return nil }
        guard case .string(let string) = value else {
            findings.record(.wrongType(path.appending(key), expected: "a string", found: value.typeName))
            return nil
        }
        if required && string.isEmpty {
            findings.record(.invalidValue(path.appending(key), reason: "must not be empty"))
            return nil
        }
        return string
    }

    /// A required identifier (`orderTypeIdentifier`, `orderIdentifier`): a non-empty string
    /// without control characters. Stores key orders on it, and a NUL would end it early in
    /// SQLite's C API, so two different orders would share one key.
    func identifier(_ key: String) -> String? {
        guard let text = string(key, required: true) else { return nil }
        // Printable ASCII has no control character: the common case skips the Unicode lookups.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        for (offset, scalar) in text.unicodeScalars.enumerated() where scalar.properties.generalCategory == .control {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let codePoint = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            findings.record(
                .invalidValue(
                    path.appending(key),
                    reason: "contains the control character \(codePoint) at character \(offset + 1); identifiers must not"))
            return nil
        }
        return text
    }

    /// An absolute URL; `httpsOnly` demands the `https` scheme.
    func url(_ key: String, required: Bool = false, httpsOnly: Bool = false) -> URL? {
        guard let text = string(key, required: required) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), !scheme.isEmpty,
            !["http", "https"].contains(scheme) || !(url.host ?? "").isEmpty
        else {
            findings.record(.invalidValue(path.appending(key), reason: "\(MessageText.quote(text)) is not an absolute URL"))
            return nil
        }
        if httpsOnly && scheme != "https" {
            findings.record(.invalidValue(path.appending(key), reason: "\(MessageText.quote(text)) must use https://"))
            return nil
        }
        return url
    }

    func timestamp(_ key: String, required: Bool = false) -> RFC3339Timestamp? {
        guard let text = string(key, required: required) else { return nil }
        guard let timestamp = RFC3339Timestamp(text) else {
            findings.record(
                .invalidDate(
                    path.appending(key),
                    reason: "\(MessageText.quote(text)) is not an RFC 3339 date-time with an offset, such as 2026-03-01T09:30:00Z"
                ))
            return nil
        }
        return timestamp
    }

    func duration(_ key: String, required: Bool = false) -> ISO8601Duration? {
        guard let text = string(key, required: required) else { return nil }
        guard let duration = ISO8601Duration(text) else {
            findings.record(
                .invalidValue(
                    path.appending(key), reason: "\(MessageText.quote(text)) is not an ISO 8601 duration, such as PT30M"))
            return nil
        }
        return duration
    }

    func enumeration<Value: RawRepresentable<String> & CaseIterable>(
        _ key: String, required: Bool = false, as type: Value.Type = Value.self
    ) -> Value? {
        guard let text = string(key, required: required) else { return nil }
        guard let value = Value(rawValue: text) else {
            let allowed = Value.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            findings.record(.invalidValue(path.appending(key), reason: "\(MessageText.quote(text)) is not one of \(allowed)"))
            return nil
        }
        return value
    }

    /// JSON numbers are read with a fixed locale (made once: making a `Locale` is not cheap).
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// A JSON number (or, with a warning, a numeric string when `allowNumericString`).
    func decimal(
        _ key: String, required: Bool = false, allowNumericString: Bool = false, range: ClosedRange<Decimal>? = nil
    ) -> Decimal? {
        guard let value = value(key, required: required) else { return nil }
        let number: Decimal?
        switch value {
        case .number(let literal):
            number = Decimal(plainLiteral: literal) ?? Decimal(string: literal, locale: Self.posix)
        case .string(let text) where allowNumericString:
            number = Decimal(exactLiteral: text)
            if number != nil { findings.record(.numericString(path.appending(key))) }
        default:
            findings.record(.wrongType(path.appending(key), expected: "a number", found: value.typeName))
            return nil
        }
        guard let number else {
            findings.record(.invalidValue(path.appending(key), reason: "not a number"))
            return nil
        }
        if let range, !range.contains(number) {
            findings.record(
                .invalidValue(path.appending(key), reason: "\(number) is outside \(range.lowerBound)…\(range.upperBound)"))
            return nil
        }
        return number
    }

    /// A JSON number as the `Double` nearest its literal (never via `Decimal`, which would add
    /// binary noise: 47.3769 must stay 47.3769).
    func double(_ key: String, required: Bool = false, range: ClosedRange<Decimal>? = nil) -> Double? {
        guard decimal(key, required: required, range: range) != nil, case .number(let literal)? = object[key] else { return nil }
        return Double(literal)
    }

    func integer(_ key: String, required: Bool = false) -> Int64? {
        // The common case, a JSON number of a few digits (`"schemaVersion": 1`), without Decimal.
        if case .number(let literal)? = ask(key), literal.utf8.count <= 18,
            literal.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let integer = Int64(literal)
        {
            return integer
        }
        guard let number = decimal(key, required: required) else { return nil }
        var source = number
        var whole = Decimal()
        NSDecimalRound(&whole, &source, 0, .plain)
        let integer = NSDecimalNumber(decimal: whole).int64Value
        guard whole == number, Decimal(integer) == number else {
            findings.record(.invalidValue(path.appending(key), reason: "\(number) is not a whole number"))
            return nil
        }
        return integer
    }

    func bool(_ key: String, required: Bool = false) -> Bool? {
        guard let value = value(key, required: required) else { return nil }
        guard case .bool(let bool) = value else {
            findings.record(.wrongType(path.appending(key), expected: "a boolean", found: value.typeName))
            return nil
        }
        return bool
    }

    /// A code of `letters` capital ASCII letters: ISO 4217 currencies (3), ISO 3166-1 countries (2).
    func code(_ key: String, required: Bool = false, letters: Int, what: String) -> String? {
        guard let text = string(key, required: required) else { return nil }
        guard text.utf8.count == letters, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
            findings.record(
                .invalidValue(
                    path.appending(key), reason: "\(MessageText.quote(text)) is not \(what) (\(letters) capital letters)"))
            return nil
        }
        return text
    }

    /// A file name in the package; recorded so the package can be checked for it.
    /// A file of the package the value names; with `image`, one that must be a PNG or JPEG image.
    func file(_ key: String, required: Bool = false, image: Bool = false) -> String? {
        guard let name = string(key, required: required) else { return nil }
        findings.referenceFile(name, at: path.appending(key), isImage: image)
        return name
    }

    func object<Value>(_ key: String, required: Bool = false, _ read: (OrderObjectReader) -> Value?) -> Value? {
        guard let value = value(key, required: required),
            let reader = OrderObjectReader(value, at: path.appending(key), findings: findings)
        else { return nil }
        defer { reader.finish() }
        return read(reader)
    }

    /// An array whose elements are read by `read`; elements that fail are left out (and recorded).
    func array<Element>(
        _ key: String, required: Bool = false, _ read: (JSONValue, JSONPath) -> Element?
    ) -> [Element]? {
        guard let value = value(key, required: required) else { return nil }
        guard case .array(let elements) = value else {
            findings.record(.wrongType(path.appending(key), expected: "an array", found: value.typeName))
            return nil
        }
        let arrayPath = path.appending(key)
        return elements.enumerated().compactMap { index, element in read(element, arrayPath.appending(index: index)) }
    }

    /// An array of objects, each read by `read`.
    func objects<Element>(_ key: String, required: Bool = false, _ read: @escaping (OrderObjectReader) -> Element?) -> [Element]?
    {
        let findings = findings
        return array(key, required: required) { value, path in
            guard let reader = OrderObjectReader(value, at: path, findings: findings) else { return nil }
            defer { reader.finish() }
            return read(reader)
        }
    }

    func strings(_ key: String, required: Bool = false) -> [String]? {
        let findings = findings
        return array(key, required: required) { value, path in
            guard case .string(let string) = value else {
                findings.record(.wrongType(path, expected: "a string", found: value.typeName))
                return nil
            }
            return string
        }
    }
}
