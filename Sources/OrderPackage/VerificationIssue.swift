/// One finding of a verification: an error (the archive is rejected) or a warning (accepted, but
/// worth fixing), with a stable ``Code``, a human-readable message and where it was found.
///
/// The ``path`` is a JSON path such as `fulfillments[0].status` for `order.json` findings, an entry
/// name such as `en.lproj/order.strings` for archive and manifest findings, or `nil` when the
/// finding concerns the archive as a whole.
public struct VerificationIssue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The stable code; the raw value (for example `manifest.hashMismatch`) never changes.
    public var code: Code
    /// What is wrong, in one sentence meant for a person.
    public var message: String
    /// Where: a JSON path, an entry name, or `nil`.
    public var path: String?

    public init(code: Code, message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    public var description: String {
        if let path, !path.isEmpty {
            return "\(code.rawValue) at \(path): \(message)"
        }
        return "\(code.rawValue): \(message)"
    }
}

extension VerificationIssue {
    /// Every code a verification can report. Raw values are part of the public contract (they
    /// appear in `orders verify --json` and are documented in docs/error-codes.md): never rename one.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        // Archive (the zip container)
        case archiveNotZip = "archive.notZip"
        case archiveCorrupt = "archive.corrupt"
        case archiveTooLarge = "archive.tooLarge"
        case archiveTooManyEntries = "archive.tooManyEntries"
        case archiveEntryTooLarge = "archive.entryTooLarge"
        case archiveUnsafePath = "archive.unsafePath"
        case archiveDuplicateEntry = "archive.duplicateEntry"
        case archiveAmbiguousName = "archive.ambiguousName"
        case archiveEncryptedEntry = "archive.encryptedEntry"
        case archiveUnsupportedCompression = "archive.unsupportedCompression"
        case archiveUnsupportedFeature = "archive.unsupportedFeature"
        case archiveSymbolicLink = "archive.symbolicLink"
        case archiveMetadataFile = "archive.metadataFile"
        case archiveNestedRoot = "archive.nestedRoot"
        case archiveMissingFile = "archive.missingFile"

        // manifest.json
        case manifestInvalidJSON = "manifest.invalidJSON"
        case manifestMissingEntry = "manifest.missingEntry"
        case manifestUnlistedFile = "manifest.unlistedFile"
        case manifestHashMismatch = "manifest.hashMismatch"
        case manifestUnsupportedDigest = "manifest.unsupportedDigest"
        case manifestByteOrderMark = "manifest.byteOrderMark"

        // signature
        case signatureInvalidCMS = "signature.invalidCMS"
        case signatureUnsupportedDigest = "signature.unsupportedDigest"
        case signatureUnsupportedAlgorithm = "signature.unsupportedAlgorithm"
        case signatureMismatch = "signature.mismatch"
        case signatureUntrustedChain = "signature.untrustedChain"
        case signatureCertificateExpired = "signature.certificateExpired"
        case signatureNotOrderTypeCertificate = "signature.notOrderTypeCertificate"
        case signatureTypeIdentifierMismatch = "signature.typeIdentifierMismatch"
        case signatureMissingSigningTime = "signature.missingSigningTime"

        // order.json and its resources
        case orderInvalidJSON = "order.invalidJSON"
        case orderMissingKey = "order.missingKey"
        case orderInvalidValue = "order.invalidValue"
        case orderInvalidDate = "order.invalidDate"
        case orderMissingResource = "order.missingResource"
        case orderInvalidStrings = "order.invalidStrings"
        case orderStringsMismatch = "order.stringsMismatch"
        case orderInvalidLocalization = "order.invalidLocalization"
        case orderLocalizationMismatch = "order.localizationMismatch"
        case orderInvalidKey = "order.invalidKey"
        case orderImageName = "order.imageName"
        case orderInvalidImage = "order.invalidImage"
        case orderUnknownKey = "order.unknownKey"
        case orderNumericAmount = "order.numericAmount"
        case orderNumericString = "order.numericString"
        case orderResourceWithoutExtension = "order.resourceWithoutExtension"
        case orderTokenWithoutWebService = "order.tokenWithoutWebService"

        /// Whether a finding with this code rejects the archive. Warnings describe input Wallet
        /// accepts but that producers should fix.
        public var isError: Bool {
            switch self {
            case .manifestByteOrderMark, .orderUnknownKey, .orderNumericAmount, .orderNumericString,
                .orderResourceWithoutExtension, .orderTokenWithoutWebService:
                return false
            default:
                return true
            }
        }
    }
}
