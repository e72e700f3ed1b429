import Foundation
import WalletPrimitives

/// `manifest.json`: every file of the package (except the manifest and the signature) mapped to
/// the lowercase hex SHA-256 of its bytes.
///
/// The manifest is always JSON-decoded (producers escape `/` as `\/`), never string-matched, and
/// its bytes are never re-serialized: the signature covers them as received.
public struct Manifest: Sendable, Hashable {
    public static let fileName = "manifest.json"
    public static let signatureFileName = "signature"

    /// One listed file.
    public struct Entry: Sendable, Hashable {
        public var path: String
        /// Lowercase hex SHA-256.
        public var sha256: String
    }

    /// The listed files, in document order.
    public let entries: [Entry]
    /// Whether the file started with a UTF-8 BOM (accepted, reported as a warning).
    public let hadByteOrderMark: Bool
    /// Entries whose values were unusable; reported by ``problems(in:)``.
    let valueProblems: [ManifestError]

    /// Decodes `manifest.json`.
    ///
    /// - Throws: ``ManifestError/invalidJSON(reason:path:)`` when the bytes are not a JSON object.
    public init(parsing data: Data, maximumDepth: Int = 64) throws(ManifestError) {
        let document: JSONParser.Document
        do {
            document = try JSONParser(maximumDepth: maximumDepth).parse(data)
        } catch {
            let path = error.path
            throw .invalidJSON(reason: error.description, path: path)
        }
        guard case .object(let object) = document.value else {
            throw .invalidJSON(reason: "the document is \(document.value.typeName), not an object", path: nil)
        }
        var entries: [Entry] = []
        var problems: [ManifestError] = []
        for member in object.members {
            guard case .string(let value) = member.value else {
                problems.append(.invalidJSON(reason: "the value is \(member.value.typeName), not a string", path: member.key))
                continue
            }
            guard value.utf8.count == 64, Self.isHex(value) else {
                problems.append(.unsupportedDigest(member.key, value: value))
                continue
            }
            entries.append(Entry(path: member.key, sha256: value.lowercased()))
        }
        self.entries = entries
        self.valueProblems = problems
        self.hadByteOrderMark = document.hadByteOrderMark
    }

    /// Every disagreement between the manifest and the archive's files, in archive order, then
    /// manifest order. An empty result means the manifest covers the package exactly.
    public func problems(in archive: ZipArchive) -> [ManifestError] {
        var problems = valueProblems
        let listed = Dictionary(entries.map { ($0.path, $0.sha256) }, uniquingKeysWith: { first, _ in first })
        for reserved in [Self.fileName, Self.signatureFileName] where listed[reserved] != nil {
            problems.append(.reservedEntry(reserved))
        }
        for entry in archive.entries where !Self.isReserved(entry.name) {
            guard let expected = listed[entry.name] else {
                if !valueProblems.contains(where: { $0.path == entry.name }) {
                    problems.append(.unlistedFile(entry.name))
                }
                continue
            }
            let actual = SHA256Digest.hex(of: entry.contents)
            if actual != expected {
                problems.append(.hashMismatch(entry.name, listed: expected, actual: actual))
            }
        }
        for entry in entries where !Self.isReserved(entry.path) && !archive.contains(entry.path) {
            problems.append(.missingEntry(entry.path))
        }
        if hadByteOrderMark { problems.append(.byteOrderMark) }
        return problems
    }

    /// The `manifest.json` bytes for `files`: sorted keys, one per line, `/` unescaped.
    public static func encode(_ files: [(name: String, contents: Data)]) -> Data {
        let lines = files.sorted { $0.name < $1.name }.map { file in
            "  \(JSONValue.string(file.name).serialized): \"\(SHA256Digest.hex(of: file.contents))\""
        }
        return Data(("{\n" + lines.joined(separator: ",\n") + "\n}\n").utf8)
    }

    static func isReserved(_ name: String) -> Bool {
        name == fileName || name == signatureFileName
    }

    static func isHex(_ text: String) -> Bool {
        text.utf8.allSatisfy(isHexDigit)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default:
            false
        }
    }
}
