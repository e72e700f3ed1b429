import WalletPrimitives

/// A problem (or, for the warning cases, a remark) about `order.json` or its resources.
public enum OrderError: Error, Sendable, Hashable, VerificationIssueConvertible {
    /// `reason` is the whole sentence (``WalletPrimitives/JSONParseError/sentence(about:)``).
    case invalidJSON(reason: String, path: JSONPath)
    case missingKey(JSONPath)
    case wrongType(JSONPath, expected: String, found: String)
    case invalidValue(JSONPath, reason: String)
    case invalidDate(JSONPath, reason: String)
    case missingResource(JSONPath, name: String, detail: String?)
    case invalidStrings(entry: String, reason: String)
    case stringsMismatch(entry: String, missingKeys: [String], extraKeys: [String], reference: String)
    case invalidLocalization(entry: String)
    case localizationMismatch(folder: String, missing: [String])
    /// A key holding a control character (U+0000–U+001F, U+007F–U+009F), anywhere in order.json.
    case invalidKey(JSONPath)
    /// A file named as an image (`merchant.logo`, `lineItems[].image`, the tracking logos)
    /// whose name is not an image's: no `.png`, `.jpg` or `.jpeg`, or a file of the package's own.
    case imageName(JSONPath, name: String, reason: String)
    /// A file named as an image whose bytes are not that image (`name` is the file read).
    case invalidImage(JSONPath, name: String, reason: String)
    // Warnings
    case unknownKey(JSONPath)
    case numericAmount(JSONPath)
    case numericString(JSONPath)
    case resourceWithoutExtension(JSONPath, name: String, matched: String)
    case tokenWithoutWebService(JSONPath)

    public var issueCode: VerificationIssue.Code {
        switch self {
        case .invalidJSON: .orderInvalidJSON
        case .missingKey: .orderMissingKey
        case .wrongType, .invalidValue: .orderInvalidValue
        case .invalidDate: .orderInvalidDate
        case .missingResource: .orderMissingResource
        case .invalidStrings: .orderInvalidStrings
        case .stringsMismatch: .orderStringsMismatch
        case .invalidLocalization: .orderInvalidLocalization
        case .localizationMismatch: .orderLocalizationMismatch
        case .invalidKey: .orderInvalidKey
        case .imageName: .orderImageName
        case .invalidImage: .orderInvalidImage
        case .unknownKey: .orderUnknownKey
        case .numericAmount: .orderNumericAmount
        case .numericString: .orderNumericString
        case .resourceWithoutExtension: .orderResourceWithoutExtension
        case .tokenWithoutWebService: .orderTokenWithoutWebService
        }
    }

    public var message: String {
        switch self {
        case .invalidJSON(let reason, _):
            reason
        case .missingKey:
            "a required key is missing"
        case .wrongType(_, let expected, let found):
            "expected \(expected), found \(found)"
        case .invalidValue(_, let reason):
            reason
        case .invalidDate(_, let reason):
            reason
        case .missingResource(_, let name, let detail):
            "the file \(MessageText.quote(name)) is not in the package" + (detail.map { " (\($0))" } ?? "")
        case .invalidStrings(_, let reason):
            "the strings file cannot be read: \(reason)"
        case .stringsMismatch(_, let missing, let extra, let reference):
            Self.describeDifference(missing: missing, extra: extra, reference: reference)
        case .invalidLocalization:
            "the folder name is not a language code such as en.lproj, de-CH.lproj or zh-Hans.lproj"
        case .localizationMismatch(_, let missing):
            "this localization lacks \(missing.joined(separator: ", ")), which other localizations have"
        case .invalidKey:
            "the key holds a control character"
        case .imageName(_, let name, let reason):
            "\(MessageText.quote(name)) is named as an image but \(reason)"
        case .invalidImage(_, let name, let reason):
            "\(MessageText.quote(name)) is not an image Wallet shows: \(reason)"
        case .unknownKey:
            "the key is not part of the order schema (ignored)"
        case .numericAmount:
            "the amount is a JSON number; Apple specifies a decimal string such as \"12.50\""
        case .numericString:
            "the value is a numeric string; the schema specifies a number"
        case .resourceWithoutExtension(_, let name, let matched):
            "\(MessageText.quote(name)) has no file extension; matched \(MessageText.quote(matched)) by base name"
        case .tokenWithoutWebService:
            "authenticationToken is set but webServiceURL is not, so the token is never used"
        }
    }

    public var path: String? {
        switch self {
        case .invalidJSON(_, let path):
            path.isRoot ? OrderValidator.fileName : path.description
        case .missingKey(let path), .wrongType(let path, _, _), .invalidValue(let path, _), .invalidDate(let path, _),
            .missingResource(let path, _, _), .unknownKey(let path), .numericAmount(let path), .numericString(let path),
            .resourceWithoutExtension(let path, _, _), .tokenWithoutWebService(let path), .invalidKey(let path),
            .imageName(let path, _, _), .invalidImage(let path, _, _):
            path.isRoot ? OrderValidator.fileName : path.description
        case .invalidStrings(let entry, _), .stringsMismatch(let entry, _, _, _), .invalidLocalization(let entry):
            entry
        case .localizationMismatch(let folder, _):
            folder
        }
    }

    /// Whether this is an error (rejects the archive) rather than a warning.
    public var isError: Bool { issueCode.isError }

    private static func describeDifference(missing: [String], extra: [String], reference: String) -> String {
        var parts: [String] = []
        if !missing.isEmpty { parts.append("lacks keys \(missing.map { "\"\($0)\"" }.joined(separator: ", "))") }
        if !extra.isEmpty { parts.append("has extra keys \(extra.map { "\"\($0)\"" }.joined(separator: ", "))") }
        return "the keys differ from \(reference): " + parts.joined(separator: "; ")
    }
}
