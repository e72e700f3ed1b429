import Foundation
import WalletPrimitives

/// Builds a signed order package: writes `manifest.json` (SHA-256 of every file), signs it into
/// a detached CMS `signature` with the current signing time, and zips everything.
///
/// ```swift
/// let signer = try OrderSigner(certificate: certificatePEM, privateKey: keyPEM, intermediates: [wwdrPEM])
/// let builder = OrderPackageBuilder(signer: signer)
/// let package = try builder.build(directory: URL(fileURLWithPath: "MyOrder"))
/// try package.write(to: URL(fileURLWithPath: "MyOrder.order"))
/// ```
///
/// Metadata files (`.DS_Store`, `__MACOSX/`, `._*`) are skipped, and a `manifest.json` or
/// `signature` among the sources is replaced by freshly generated ones.
public struct OrderPackageBuilder: Sendable {
    public var signer: OrderSigner
    /// How entries are stored; Wallet accepts both, real packages use deflate.
    public var compression: ZipArchive.CompressionMethod
    /// The clock for the signing time and the entries' modification time.
    public var clock: @Sendable () -> Date

    public init(
        signer: OrderSigner,
        compression: ZipArchive.CompressionMethod = .deflate,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.signer = signer
        self.compression = compression
        self.clock = clock
    }

    /// Packages in-memory files (path relative to the package root → contents).
    public func build(files: [String: Data]) throws(OrderPackageBuilderError) -> Data {
        try package(files: files).archive
    }

    /// ``build(files:)``, keeping the package's entries as they were zipped — the sources, then
    /// `manifest.json` and `signature` — so that they can be checked
    /// (``OrderVerifier/verify(package:at:)``) without reading the archive back.
    public func package(files: [String: Data]) throws(OrderPackageBuilderError) -> SignedOrderPackage {
        var sources: [(name: String, contents: Data)] = []
        // The names a reader refuses as ambiguous (`archive.ambiguousName`), the two the builder
        // writes among them, are refused here by name rather than signed into a package that
        // fails verification.
        var folded = ArchiveEntryName.FoldedNames()
        for reserved in [Manifest.fileName, Manifest.signatureFileName] { _ = folded.collision(of: reserved) }
        for (name, contents) in files.sorted(by: { $0.key < $1.key }) {
            if ArchiveEntryName.isMetadata(name) || Manifest.isReserved(name) { continue }
            if let reason = ArchiveEntryName.unsafeReason(name) { throw .unsafeName(name, reason: reason) }
            if let other = folded.collision(of: name) {
                throw .unsafeName(name, reason: ArchiveError.ambiguousName(entry: name, other: other).message)
            }
            sources.append((name, contents))
        }
        guard !sources.isEmpty else { throw .noSources }

        let now = clock()
        let manifest = Manifest.encode(sources)
        let signature: Data
        do {
            signature = try signer.sign(manifest: manifest, signingTime: now)
        } catch {
            throw .signing(error)
        }
        let entries =
            sources.map { ZipArchive.Entry(name: $0.name, contents: $0.contents, compression: compression) } + [
                ZipArchive.Entry(name: Manifest.fileName, contents: manifest, compression: compression),
                ZipArchive.Entry(name: Manifest.signatureFileName, contents: signature, compression: compression),
            ]
        return try SignedOrderPackage(entries: entries, modificationDate: now)
    }

    /// Packages the regular files under `directory` (its contents, not the folder itself).
    public func build(directory: URL) throws(OrderPackageBuilderError) -> Data {
        try build(files: Self.readSources(directory))
    }

    /// The regular files under `directory` by their path inside it, as ``build(directory:)``
    /// packages them (metadata files skipped, symbolic links refused).
    public static func sources(in directory: URL) throws(OrderPackageBuilderError) -> [String: Data] {
        try readSources(directory)
    }

    static func readSources(_ directory: URL) throws(OrderPackageBuilderError) -> [String: Data] {
        let root = directory.standardizedFileURL.resolvingSymlinksInPath()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) else {
            throw .unreadableSource(directory.relativePath, reason: "no such directory")
        }
        guard isDirectory.boolValue else { throw .unreadableSource(directory.relativePath, reason: "not a directory") }
        let keys: [URLResourceKey] = [.isRegularFileKey, .isDirectoryKey, .isSymbolicLinkKey]
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys) else {
            throw .unreadableSource(directory.relativePath, reason: "cannot list the directory")
        }
        var files: [String: Data] = [:]
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        for case let url as URL in enumerator {
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(prefix) else { continue }
            let name = String(path.dropFirst(prefix.count))
            let shown = directory.appendingPathComponent(name).relativePath
            if ArchiveEntryName.isMetadata(name) {
                if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true { enumerator.skipDescendants() }
                continue
            }
            let values: URLResourceValues
            do {
                values = try url.resourceValues(forKeys: Set(keys))
            } catch {
                throw .unreadableSource(shown, reason: error.localizedDescription)
            }
            if values.isSymbolicLink == true { throw .unreadableSource(shown, reason: "symbolic links are not packaged") }
            guard values.isRegularFile == true else { continue }
            // Two files whose names differ only by Unicode normalization are one `String` key:
            // refused, never one of them dropped.
            if let earlier = files.index(forKey: name).map({ files.keys[$0] }) {
                throw .unsafeName(name, reason: ArchiveError.ambiguousName(entry: name, other: earlier).message)
            }
            do {
                files[name] = try Data(contentsOf: url)
            } catch {
                throw .unreadableSource(shown, reason: error.localizedDescription)
            }
        }
        return files
    }
}

/// Why a package could not be built.
public enum OrderPackageBuilderError: Error, Sendable, CustomStringConvertible {
    case noSources
    case unsafeName(String, reason: String)
    case unreadableSource(String, reason: String)
    case signing(OrderSignerError)
    case archive(ArchiveWriteError)

    public var description: String {
        switch self {
        case .noSources: "there are no files to package"
        case .unsafeName(let name, let reason): "\(MessageText.quote(name)) cannot be packaged: \(reason)"
        case .unreadableSource(let path, let reason): "\(path): \(reason)"
        case .signing(let error): error.description
        case .archive(let error): error.description
        }
    }
}

extension OrderPackageBuilderError: WalletError {
    public var code: String {
        switch self {
        case .noSources: "pack.noSources"
        case .unsafeName: "pack.unsafeName"
        case .unreadableSource: "pack.unreadableSource"
        case .signing(let error): error.code
        case .archive(let error): error.code
        }
    }

    public var message: String { description }

    public var path: String? {
        switch self {
        case .unsafeName(let name, _): name
        case .unreadableSource(let path, _): path
        default: nil
        }
    }

    public var category: ErrorCategory { .invalidInput }
}
