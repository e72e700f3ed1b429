import WalletPrimitives

/// A problem with `manifest.json`.
public enum ManifestError: Error, Sendable, Hashable, VerificationIssueConvertible {
    case invalidJSON(reason: String, path: String?)
    case reservedEntry(String)
    case missingEntry(String)
    case unlistedFile(String)
    case hashMismatch(String, listed: String, actual: String)
    case unsupportedDigest(String, value: String)
    case byteOrderMark

    public var issueCode: VerificationIssue.Code {
        switch self {
        case .invalidJSON, .reservedEntry: .manifestInvalidJSON
        case .missingEntry: .manifestMissingEntry
        case .unlistedFile: .manifestUnlistedFile
        case .hashMismatch: .manifestHashMismatch
        case .unsupportedDigest: .manifestUnsupportedDigest
        case .byteOrderMark: .manifestByteOrderMark
        }
    }

    public var message: String {
        switch self {
        case .invalidJSON(let reason, _):
            "manifest.json is not a JSON object of file names to SHA-256 digests: \(reason)"
        case .reservedEntry(let name):
            "manifest.json must not list \(name)"
        case .missingEntry:
            "manifest.json lists this file, but the archive does not contain it"
        case .unlistedFile:
            "the archive contains this file, but manifest.json does not list it (unsigned content)"
        case .hashMismatch(_, let listed, let actual):
            "the SHA-256 of the file is \(actual), manifest.json says \(listed)"
        case .unsupportedDigest(_, let value) where value.utf8.count == 40 && Manifest.isHex(value):
            "the digest has 40 hex digits (SHA-1, as in Wallet passes); order manifests use SHA-256 (64 digits)"
        case .unsupportedDigest(_, let value):
            "\(MessageText.quote(value)) is not a SHA-256 digest (64 hex digits)"
        case .byteOrderMark:
            "manifest.json starts with a UTF-8 byte order mark"
        }
    }

    public var path: String? {
        switch self {
        case .invalidJSON(_, let path): path ?? Manifest.fileName
        case .byteOrderMark: Manifest.fileName
        case .reservedEntry(let name), .missingEntry(let name), .unlistedFile(let name),
            .hashMismatch(let name, _, _), .unsupportedDigest(let name, _):
            name
        }
    }
}
