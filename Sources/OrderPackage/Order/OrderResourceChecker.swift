import Foundation

/// Checks what `order.json` refers to against the package's files: every referenced file present
/// (at the root, or in every localization), localization folders well named and complete, and
/// `order.strings` key sets identical across localizations.
struct OrderResourceChecker {
    static let stringsFileName = "order.strings"

    private let rootFiles: Set<String>
    /// `en.lproj` → names inside it (relative to the folder).
    private let localizations: [String: Set<String>]
    private let archive: ZipArchive

    init(archive: ZipArchive) {
        self.archive = archive
        var root: Set<String> = []
        var localizations: [String: Set<String>] = [:]
        for name in archive.names {
            // By bytes, as a file system and Wallet's path functions split it, and without
            // grapheme breaking (every entry of every archive comes here).
            if let slash = name.utf8.firstIndex(of: UInt8(ascii: "/")), name.utf8[..<slash].suffix(6).elementsEqual(".lproj".utf8)
            {
                localizations[String(name[..<slash]), default: []].insert(String(name[name.index(after: slash)...]))
            } else {
                root.insert(name)
            }
        }
        self.rootFiles = root
        self.localizations = localizations
    }

    func problems(references: [OrderFindings.FileReference]) -> [OrderError] {
        var problems: [OrderError] = []
        problems += localizationProblems()
        problems += stringsProblems()
        for reference in references {
            if let problem = resolve(reference) {
                problems.append(problem)
            } else if reference.isImage {
                problems += imageProblems(reference)
            }
        }
        return problems
    }

    // MARK: - Images

    /// The package's own files: never an image, whatever order.json says.
    static let packageFiles: Set<String> = [OrderValidator.fileName, "manifest.json", "signature"]

    /// Each file an image reference resolves to must be named as an image and be one
    /// (``ImageHeader``): a PNG or JPEG, as its extension says, within the size limit.
    private func imageProblems(_ reference: OrderFindings.FileReference) -> [OrderError] {
        var problems: [OrderError] = []
        for entry in resolvedEntries(reference.name) {
            let fileName = entry.lastIndex(of: "/").map { String(entry[entry.index(after: $0)...]) } ?? entry
            if Self.packageFiles.contains(entry) || fileName == Self.stringsFileName {
                problems.append(.imageName(reference.path, name: entry, reason: "it is one of the package's own files"))
                continue
            }
            guard let promised = ImageHeader.Format(fileName: fileName) else {
                problems.append(
                    .imageName(reference.path, name: entry, reason: "it has no image extension (.png, .jpg or .jpeg)"))
                continue
            }
            switch ImageHeader.read(archive[entry] ?? Data()) {
            case .failure(let error):
                problems.append(.invalidImage(reference.path, name: entry, reason: error.reason))
            case .success(let header) where header.format != promised:
                problems.append(
                    .invalidImage(
                        reference.path, name: entry,
                        reason: "it is a \(header.format.rawValue) image named as \(promised.rawValue)"))
            case .success:
                break
            }
        }
        return problems
    }

    /// The entries a reference that resolved names: its name or scale variants at the root, else
    /// in every localization; a name without an extension, every file with its base name.
    private func resolvedEntries(_ name: String) -> [String] {
        guard Self.fileExtension(of: name) != nil else {
            return rootFiles.sorted().filter { Self.baseName(of: $0) == name }
                + localizations.keys.sorted().flatMap { folder in
                    localizations[folder, default: []].sorted().filter { Self.baseName(of: $0) == name }.map { "\(folder)/\($0)" }
                }
        }
        let candidates = OrderResources.variants(of: name)
        let atRoot = candidates.filter(rootFiles.contains)
        // The common case — the file at the root — looks at no localization.
        if !atRoot.isEmpty || localizations.isEmpty { return atRoot }
        return localizations.keys.sorted().flatMap { folder in
            candidates.filter { localizations[folder, default: []].contains($0) }.map { "\(folder)/\($0)" }
        }
    }

    // MARK: - Localizations

    private func localizationProblems() -> [OrderError] {
        var problems: [OrderError] = []
        let folders = localizations.keys.sorted()
        for folder in folders where !Self.isValidLocalizationName(folder) {
            problems.append(.invalidLocalization(entry: folder + "/"))
        }
        let resources = folders.map { folder in
            (folder, localizations[folder, default: []].subtracting([Self.stringsFileName]))
        }
        let all = resources.reduce(into: Set<String>()) { $0.formUnion($1.1) }
        for (folder, files) in resources where files != all {
            problems.append(.localizationMismatch(folder: folder + "/", missing: all.subtracting(files).sorted()))
        }
        return problems
    }

    /// `en`, `de-CH`, `zh-Hans`, `pt_BR`, `es-419`: a 2–3 letter language, then subtags.
    static func isValidLocalizationName(_ folder: String) -> Bool {
        let stem = folder.dropLast(".lproj".count)
        let parts = stem.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let language = parts.first, (2...3).contains(language.count),
            language.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count)
                && part.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        }
    }

    private func stringsProblems() -> [OrderError] {
        var problems: [OrderError] = []
        var keySets: [(folder: String, keys: Set<String>)] = []
        let folders = localizations.keys.sorted()
        let withStrings = folders.filter { localizations[$0, default: []].contains(Self.stringsFileName) }
        guard !withStrings.isEmpty else { return [] }
        for folder in folders where !withStrings.contains(folder) {
            problems.append(.localizationMismatch(folder: folder + "/", missing: [Self.stringsFileName]))
        }
        for folder in withStrings {
            let entry = "\(folder)/\(Self.stringsFileName)"
            do {
                keySets.append((folder, try OrderStrings(parsing: archive[entry] ?? .init()).keys))
            } catch {
                problems.append(.invalidStrings(entry: entry, reason: error.reason))
            }
        }
        guard let reference = keySets.first else { return problems }
        for other in keySets.dropFirst() where other.keys != reference.keys {
            problems.append(
                .stringsMismatch(
                    entry: "\(other.folder)/\(Self.stringsFileName)",
                    missingKeys: reference.keys.subtracting(other.keys).sorted(),
                    extraKeys: other.keys.subtracting(reference.keys).sorted(),
                    reference: "\(reference.folder)/\(Self.stringsFileName)"))
        }
        return problems
    }

    // MARK: - References

    private func resolve(_ reference: OrderFindings.FileReference) -> OrderError? {
        let name = reference.name
        guard Self.fileExtension(of: name) != nil else {
            // Apple's prose says "logo"; producers write "logo.png". Match the base name, warn.
            if let match = (rootFiles.sorted() + localizedNames()).first(where: { Self.baseName(of: $0) == name }) {
                return .resourceWithoutExtension(reference.path, name: name, matched: match)
            }
            return .missingResource(reference.path, name: name, detail: nil)
        }
        let candidates = OrderResources.variants(of: name)
        if candidates.contains(where: rootFiles.contains) { return nil }
        let folders = localizations.keys.sorted()
        let lacking = folders.filter { folder in !candidates.contains(where: localizations[folder, default: []].contains) }
        if !folders.isEmpty && lacking.isEmpty { return nil }
        if lacking.count < folders.count {
            return .missingResource(reference.path, name: name, detail: "missing from \(lacking.joined(separator: ", "))")
        }
        return .missingResource(reference.path, name: name, detail: nil)
    }

    private func localizedNames() -> [String] {
        localizations.keys.sorted().flatMap { localizations[$0, default: []].sorted() }
    }

    /// The extension of the name's last component (after its last dot, which must not start it),
    /// found by bytes as a file system and Wallet's path functions find it.
    static func fileExtension(of name: String) -> Substring? {
        let bytes = name.utf8
        let start = bytes.lastIndex(of: UInt8(ascii: "/")).map(bytes.index(after:)) ?? bytes.startIndex
        guard let dot = bytes[start...].lastIndex(of: UInt8(ascii: ".")), dot != start else { return nil }
        return name[bytes.index(after: dot)...]
    }

    /// `images/logo@2x.png` → `images/logo`.
    static func baseName(of name: String) -> String {
        var base = Substring(name)
        if let dot = base.lastIndex(of: "."), base[..<dot].split(separator: "/").last != nil, fileExtension(of: name) != nil {
            base = base[..<dot]
        }
        for scale in ["@2x", "@3x"] where base.hasSuffix(scale) {
            base = base.dropLast(scale.count)
        }
        return String(base)
    }
}
