/// Why a document is not acceptable JSON, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        case empty
        case unexpectedEnd
        case unexpectedCharacter(String)
        case invalidUTF8
        case invalidEscape
        case invalidNumber
        case controlCharacterInString
        case tooDeep(limit: Int)
        case duplicateKey(String)
        case trailingContent
    }

    public var reason: Reason
    /// Byte offset, and the 1-based line and column of that byte.
    public var offset: Int
    public var line: Int
    public var column: Int
    /// The member or element being read when parsing stopped.
    public var jsonPath: JSONPath

    /// False for JSON the grammar of RFC 8259 allows but this parser refuses on purpose: nesting
    /// past the cap and duplicate keys. Saying "not valid JSON" about those would mislead.
    public var isSyntaxError: Bool {
        switch reason {
        case .tooDeep, .duplicateKey: false
        default: true
        }
    }

    /// What is wrong with `document` (`"order.json"`, `"the feed"`), in one sentence:
    /// "the feed is not valid JSON: unexpected } at line 1, column 7" for a syntax error, the
    /// description alone ("nesting deeper than 16 levels at …") for what is refused on purpose.
    public func sentence(about document: String) -> String {
        isSyntaxError ? "\(document) is not valid JSON: \(description)" : description
    }

    public var description: String {
        let location = "line \(line), column \(column)"
        switch reason {
        case .empty: return "the document is empty"
        case .unexpectedEnd: return "the document ends too early (\(location))"
        case .unexpectedCharacter(let character): return "unexpected \(character) at \(location)"
        case .invalidUTF8: return "invalid UTF-8 at \(location)"
        case .invalidEscape: return "invalid escape sequence at \(location)"
        case .invalidNumber: return "invalid number at \(location)"
        case .controlCharacterInString: return "unescaped control character in a string at \(location)"
        case .tooDeep(let limit): return "nesting deeper than \(limit) levels at \(location)"
        case .duplicateKey(let key): return "duplicate key \"\(key)\" at \(location)"
        case .trailingContent: return "unexpected content after the document at \(location)"
        }
    }
}

extension JSONParseError: WalletError {
    public var code: String { "json.invalid" }
    public var message: String { description }
    public var path: String? { jsonPath.description.isEmpty ? nil : jsonPath.description }
    public var category: ErrorCategory { .invalidInput }
}
