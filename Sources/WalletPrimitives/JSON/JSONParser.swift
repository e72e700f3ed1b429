import Foundation

/// A strict RFC 8259 parser producing ``JSONValue``.
///
/// Differences from `JSONSerialization`, all on purpose: nesting is capped (a document of
/// 100,000 `[` fails fast instead of overflowing the stack), duplicate keys are an error, number
/// literals are kept verbatim, and errors carry a line, a column and the JSON path being read.
/// A leading UTF-8 byte order mark is skipped and reported through ``Document/hadByteOrderMark``.
public struct JSONParser: Sendable {
    /// A parsed document.
    public struct Document: Sendable, Hashable {
        public var value: JSONValue
        public var hadByteOrderMark: Bool
        /// Whether some key, at any depth, holds a control character (U+0000–U+001F, U+007F,
        /// U+0080–U+009F): noted while the keys are read, so that a caller that refuses such
        /// keys walks the document only when there is one.
        public var hasControlCharacterKey = false
    }

    public var maximumDepth: Int

    public init(maximumDepth: Int = 64) {
        self.maximumDepth = maximumDepth
    }

    public func parse(_ data: Data) throws(JSONParseError) -> Document {
        let result: Result<Document, JSONParseError> = data.withUnsafeBytes { buffer in
            var cursor = Cursor(bytes: buffer, maximumDepth: maximumDepth)
            return Result { () throws(JSONParseError) -> Document in try cursor.parseDocument() }
        }
        return try result.get()
    }
}

private struct Cursor {
    let bytes: UnsafeRawBufferPointer
    let maximumDepth: Int
    var position = 0
    var depth = 0
    var path: [JSONPath.Component] = []
    var hasControlCharacterKey = false

    init(bytes: UnsafeRawBufferPointer, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONParser.Document {
        let hadByteOrderMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        if hadByteOrderMark { position = 3 }
        skipWhitespace()
        guard position < bytes.count else { throw error(.empty) }
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else { throw error(.trailingContent) }
        return JSONParser.Document(
            value: value, hadByteOrderMark: hadByteOrderMark, hasControlCharacterKey: hasControlCharacterKey)
    }

    // MARK: Values

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw error(.unexpectedEnd) }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw unexpected()
        }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1  // {
        var members: [JSONObject.Member] = []
        var keys: Set<String> = []
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(JSONObject(members))
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw position < bytes.count ? unexpected() : error(.unexpectedEnd) }
            let keyStart = position
            let key = try parseString()
            if !hasControlCharacterKey {
                hasControlCharacterKey = keyHasControlCharacter(key, raw: keyStart + 1..<position - 1)
            }
            if members.count < 16 {
                if members.contains(where: { $0.key == key }) { throw error(.duplicateKey(key), at: keyStart) }
            } else {
                if keys.isEmpty { keys = Set(members.map(\.key)) }
                guard keys.insert(key).inserted else { throw error(.duplicateKey(key), at: keyStart) }
            }
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw position < bytes.count ? unexpected() : error(.unexpectedEnd) }
            position += 1
            skipWhitespace()
            path.append(.key(key))
            let value = try parseValue()
            path.removeLast()
            members.append(JSONObject.Member(key: key, value: value))
            if try consumeSeparator(closing: UInt8(ascii: "}")) { return .object(JSONObject(members)) }
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            path.append(.index(elements.count))
            let value = try parseValue()
            path.removeLast()
            elements.append(value)
            if try consumeSeparator(closing: UInt8(ascii: "]")) { return .array(elements) }
        }
    }

    /// After a member or element: `,` means more follow (false); the closing bracket ends the
    /// container (true).
    mutating func consumeSeparator(closing: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        switch peek {
        case UInt8(ascii: ","):
            position += 1
            return false
        case closing:
            position += 1
            depth -= 1
            return true
        case nil:
            throw error(.unexpectedEnd)
        default:
            throw unexpected()
        }
    }

    mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        guard depth <= maximumDepth else {
            // Reported at the member holding the nested containers (`merchantName`, not
            // `merchantName[0][0][0]…`); line and column say exactly where.
            while case .index = path.last { path.removeLast() }
            throw error(.tooDeep(limit: maximumDepth))
        }
    }

    // MARK: Strings

    /// Whether `key`, read from the raw bytes `raw`, holds a control character: an escape may
    /// hide one (its decoded scalars are looked at then, keys with escapes being rare), DEL and
    /// the C1 controls may stand as they are (a raw C0 byte is refused as the string is read).
    func keyHasControlCharacter(_ key: String, raw: Range<Int>) -> Bool {
        var previous: UInt8 = 0
        for index in raw {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                return key.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
            }
            if byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) { return true }
            previous = byte
        }
        return false
    }

    mutating func parseString() throws(JSONParseError) -> String {
        position += 1  // opening quote
        let start = position
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
                guard let string = String(validUTF8: slice) else { throw error(.invalidUTF8, at: start) }
                position += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error(.controlCharacterInString) }
            position += 1
        }
        guard position < bytes.count else { throw error(.unexpectedEnd) }

        var decoded = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let string = decoded.withUnsafeBytes({ String(validUTF8: $0) }) else {
                    throw error(.invalidUTF8, at: start)
                }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw error(.unexpectedEnd) }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): decoded.append(0x22)
                case UInt8(ascii: "\\"): decoded.append(0x5C)
                case UInt8(ascii: "/"): decoded.append(0x2F)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    decoded.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw error(.invalidEscape, at: position - 2)
                }
            case 0..<0x20:
                throw error(.controlCharacterInString)
            default:
                decoded.append(byte)
                position += 1
            }
        }
        throw error(.unexpectedEnd)
    }

    /// After `\u`: four hex digits, combining a surrogate pair into one scalar.
    mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let escapeStart = position - 2
        let high = try parseHex4()
        if (0xD800...0xDBFF).contains(high) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
            else { throw error(.invalidEscape, at: escapeStart) }
            position += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            else { throw error(.invalidEscape, at: escapeStart) }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw error(.invalidEscape, at: escapeStart) }
        return scalar
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error(.unexpectedEnd) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.invalidEscape)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    // MARK: Numbers and literals

    mutating func parseNumber() throws(JSONParseError) -> String {
        let start = position
        if peek == UInt8(ascii: "-") { position += 1 }
        guard let first = peek, isDigit(first) else { throw error(.invalidNumber, at: start) }
        position += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek == UInt8(ascii: ".") {
            position += 1
            guard let next = peek, isDigit(next) else { throw error(.invalidNumber, at: start) }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard let next = peek, isDigit(next) else { throw error(.invalidNumber, at: start) }
            skipDigits()
        }
        if let next = peek, isDigit(next) { throw error(.invalidNumber, at: start) }  // "01"
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error(.unexpectedEnd) }
        let expected = UnsafeRawBufferPointer(start: literal.utf8Start, count: count)
        guard bytes[position..<position + count].elementsEqual(expected) else { throw unexpected() }
        position += count
    }

    // MARK: Helpers

    var peek: UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    mutating func skipDigits() {
        while let byte = peek, isDigit(byte) { position += 1 }
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    func unexpected() -> JSONParseError {
        guard let byte = peek else { return error(.unexpectedEnd) }
        let shown = (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        return error(.unexpectedCharacter(shown))
    }

    func error(_ reason: JSONParseError.Reason, at offset: Int? = nil) -> JSONParseError {
        let offset = min(offset ?? position, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return JSONParseError(
            reason: reason, offset: offset, line: line, column: offset - lineStart + 1, jsonPath: JSONPath(path))
    }
}
