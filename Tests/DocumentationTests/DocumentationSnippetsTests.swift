import Foundation
import Testing

/// Every Swift block of the documentation is code that compiles: the DocC catalog includes
/// `Snippets/` (which `swift build` compiles) by `@Snippet`, and each ```` ```swift ```` block of
/// README.md, docs/ and the catalog must be a run of a snippet's shown lines — or, for a package
/// manifest, `Examples/ShopBackend/Package.swift` (which CI builds), but for the dependency's path.
@Suite("Documentation: every Swift block is compiled code")
struct DocumentationSnippetsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func files(in folder: String, ending suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(suffix) }.sorted().map { "\(folder)/\($0)" }
    }

    /// The documents whose Swift blocks are checked.
    static func documents() throws -> [String] {
        try ["README.md"] + files(in: "docs", ending: ".md") + files(in: "Sources/WalletOrders/WalletOrders.docc", ending: ".md")
    }

    /// The ```swift blocks of a Markdown text, each as its lines.
    static func swiftBlocks(_ text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current ?? [])
                current = nil
            } else if current != nil {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The lines a snippet shows, by slice (`""` for the whole file), as swift-docc-plugin's
    /// SnippetParser reads them: lines outside `snippet.hide` regions, without the markers; a
    /// slice (`// snippet.NAME`) starts only where lines are shown, ends at `// snippet.end` or
    /// at the next slice, and leaves the visibility as it was.
    static func shownLines(_ text: String) -> [String: [String]] {
        var slices: [String: [String]] = ["": []]
        var hidden = false
        var open: String?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// snippet.") {
                let name = String(trimmed.dropFirst("// snippet.".count))
                switch name {
                case "hide": hidden = true
                case "show": hidden = false
                case "end": open = nil
                default:
                    open = hidden ? open : name
                    if !hidden { slices[name] = [] }
                }
                continue
            }
            guard !hidden else { continue }
            slices[""]?.append(line)
            if let open { slices[open]?.append(line) }
        }
        return slices
    }

    static func normalized(_ lines: [String]) -> [String] {
        var lines = lines.map { $0.trimmingCharacters(in: .whitespaces) }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<$0 + needle.count]) == needle }
    }

    /// A manifest's lines without comments and blank lines, its path dependency's path made a
    /// placeholder (its `name:` kept: without it the package is known by its folder's name).
    static func manifestLines(_ lines: [String]) -> [String] {
        normalized(lines).compactMap { line in
            if line.isEmpty || line.hasPrefix("//") { return nil }
            if line.hasPrefix(".package("), line.contains("path:") {
                let name = line.firstRange(of: #/name: "[^"]*"/#).map { String(line[$0]) + ", " } ?? ""
                return ".package(\(name)path: …)"
            }
            return line
        }
    }

    @Test("each Swift block of README.md, docs/ and the DocC catalog is shown by a snippet, or is the example's manifest")
    func blocksAreSnippets() throws {
        let snippets = try Self.files(in: "Snippets", ending: ".swift").map { try Self.shownLines(Self.read($0)) }
        let shown = snippets.flatMap { $0.values.map(Self.normalized) }
        let manifest = Self.manifestLines(try Self.read("Examples/ShopBackend/Package.swift").components(separatedBy: "\n"))
        var checked = 0
        for document in try Self.documents() {
            for block in Self.swiftBlocks(try Self.read(document)) {
                checked += 1
                if block.first?.hasPrefix("// swift-tools-version") == true {
                    #expect(Self.manifestLines(block) == manifest, "\(document): the manifest differs from the example's")
                    continue
                }
                let lines = Self.normalized(block)
                #expect(
                    shown.contains { Self.contains($0, lines) },
                    "\(document): a Swift block no snippet shows:\n\(block.prefix(4).joined(separator: "\n"))")
            }
        }
        #expect(checked >= 3, "only \(checked) Swift blocks found")
    }

    @Test("every @Snippet of the DocC catalog names a snippet file and slice that exist")
    func snippetReferencesResolve() throws {
        var references = 0
        for document in try Self.files(in: "Sources/WalletOrders/WalletOrders.docc", ending: ".md") {
            for line in try Self.read(document).components(separatedBy: "\n") where line.hasPrefix("@Snippet(") {
                references += 1
                let parts = line.components(separatedBy: "\"")
                guard parts.count >= 2, parts[1].hasPrefix("wallet-orders/Snippets/") else {
                    Issue.record("\(document): \(line)")
                    continue
                }
                let file = parts[1].dropFirst("wallet-orders/".count) + ".swift"
                let slice = line.contains("slice:") && parts.count >= 4 ? parts[3] : ""
                let slices = Self.shownLines(try Self.read(String(file)))
                #expect(!(slices[slice] ?? []).filter { !$0.isEmpty }.isEmpty, "\(document): \(line)")
            }
        }
        #expect(references >= 10)
    }
}
