import WalletPrimitives

/// A problem with the zip container or one of its entries.
public enum ArchiveError: Error, Sendable, Hashable, VerificationIssueConvertible {
    case notZip
    case corrupt(entry: String?, reason: String)
    /// `size` is nil when the archive was not read to its end (a stream cut at the limit).
    case archiveTooLarge(size: Int?, limit: Int)
    case uncompressedTooLarge(limit: Int)
    case tooManyEntries(count: Int, limit: Int)
    case entryTooLarge(entry: String, limit: Int)
    case unsafePath(entry: String, reason: String)
    case duplicateEntry(String)
    /// The name equals `other`'s after Unicode case folding and NFC: on a case-insensitive file
    /// system (macOS's default) one would overwrite the other.
    case ambiguousName(entry: String, other: String)
    case encryptedEntry(String)
    case unsupportedCompression(entry: String, method: Int)
    /// A header asks for a zip feature this reader does not implement (``ZipFeatures``): a
    /// version needed to extract above 4.5, or a general-purpose flag bit that changes how the
    /// bytes are read or that the format reserves. `entry` is nil for the ZIP64 end record.
    case unsupportedFeature(entry: String?, reason: String)
    case symbolicLink(String)
    case metadataFile(String)
    case nestedRoot(folder: String)
    case missingFile(String, hint: String?)

    public var issueCode: VerificationIssue.Code {
        switch self {
        case .notZip: .archiveNotZip
        case .corrupt: .archiveCorrupt
        case .archiveTooLarge, .uncompressedTooLarge: .archiveTooLarge
        case .tooManyEntries: .archiveTooManyEntries
        case .entryTooLarge: .archiveEntryTooLarge
        case .unsafePath: .archiveUnsafePath
        case .duplicateEntry: .archiveDuplicateEntry
        case .ambiguousName: .archiveAmbiguousName
        case .encryptedEntry: .archiveEncryptedEntry
        case .unsupportedCompression: .archiveUnsupportedCompression
        case .unsupportedFeature: .archiveUnsupportedFeature
        case .symbolicLink: .archiveSymbolicLink
        case .metadataFile: .archiveMetadataFile
        case .nestedRoot: .archiveNestedRoot
        case .missingFile: .archiveMissingFile
        }
    }

    public var message: String {
        switch self {
        case .notZip:
            "the file is not a zip archive"
        case .corrupt(_, let reason):
            "the archive is damaged: \(reason)"
        case .archiveTooLarge(let size?, let limit):
            "the archive is \(size) bytes; the limit is \(limit) bytes"
        case .archiveTooLarge(nil, let limit):
            "the archive is larger than the limit of \(limit) bytes"
        case .uncompressedTooLarge(let limit):
            "the entries inflate to more than \(limit) bytes in total"
        case .tooManyEntries(let count, let limit):
            "the archive has \(count) entries; the limit is \(limit)"
        case .entryTooLarge(_, let limit):
            "the entry inflates to more than \(limit) bytes"
        case .unsafePath(_, let reason):
            "unsafe entry name: \(reason)"
        case .duplicateEntry:
            "the name appears more than once in the archive"
        case .ambiguousName(_, let other):
            "the name differs from \(MessageText.quote(other)) only by case or Unicode normalization: "
                + "the package would unpack differently on a case-insensitive file system"
        case .encryptedEntry:
            "the entry is encrypted; order packages cannot contain encrypted files"
        case .unsupportedCompression(_, let method):
            "compression method \(method) is not allowed; use stored (0) or deflate (8)"
        case .unsupportedFeature(_, let reason):
            "the archive asks for a zip feature this reader does not implement: \(reason)"
        case .symbolicLink:
            "the entry is a symbolic link; order packages contain regular files only"
        case .metadataFile:
            "metadata files (.DS_Store, __MACOSX/, ._*) must not be in an order package"
        case .nestedRoot(let folder):
            "every file sits inside the folder '\(folder)/'; zip the folder's contents, not the folder itself"
        case .missingFile(let name, let hint):
            "the package has no \(name)" + (hint.map { "; \($0)" } ?? "")
        }
    }

    public var path: String? {
        switch self {
        case .notZip, .archiveTooLarge, .uncompressedTooLarge, .tooManyEntries, .nestedRoot:
            nil
        case .corrupt(let entry, _), .unsupportedFeature(let entry, _):
            entry
        case .entryTooLarge(let entry, _), .unsafePath(let entry, _), .unsupportedCompression(let entry, _),
            .ambiguousName(let entry, _):
            entry
        case .duplicateEntry(let entry), .encryptedEntry(let entry), .symbolicLink(let entry),
            .metadataFile(let entry), .missingFile(let entry, _):
            entry
        }
    }
}

/// Why an archive could not be read: every problem found, not just the first.
public struct ArchiveRejection: Error, Sendable, Hashable {
    public var errors: [ArchiveError]

    public init(_ errors: [ArchiveError]) {
        self.errors = errors
    }
}

extension ArchiveRejection: WalletError {
    /// The first problem's code; ``errors`` lists them all.
    public var code: String { errors.first?.code ?? ArchiveError.corrupt(entry: nil, reason: "").code }
    public var message: String { errors.map(\.message).joined(separator: "; ") }
    public var path: String? { errors.first?.path }
    public var category: ErrorCategory { .invalidInput }
}
