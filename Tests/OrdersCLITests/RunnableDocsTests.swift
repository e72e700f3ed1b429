import Foundation
import Glibc
import TestArchiveTable
import Testing

/// Every shell block of README.md and docs/ marked `<!-- runnable -->` (the line before its
/// fence) runs as written, with the built `orders` on `PATH`, in a fresh folder that holds the
/// repository's `TestArchives/` and `Samples/`, a fresh HOME, paths under `/tmp/` moved into the
/// folder and port 8080 replaced by a free one. `swift run orders` is `orders`, and a `swift
/// build` line is left out (the binary is built). A line ending in `# exit N` must exit N;
/// every other line must succeed (`set -euo pipefail`). Background jobs are stopped at the end.
@Suite("Documentation: the blocks marked runnable run")
struct RunnableDocsTests {
    struct Block: CustomStringConvertible, Sendable {
        var document: String
        var line: Int
        var text: String
        var description: String { "\(document):\(line)" }
    }

    static let blocks: [Block] = {
        let root = TestArchiveTable.packageRoot
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        var blocks: [Block] = []
        let documents = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        for document in documents {
            guard let text = try? String(contentsOf: root.appendingPathComponent(document), encoding: .utf8) else { continue }
            let lines = text.components(separatedBy: "\n")
            var index = 0
            while index < lines.count - 1 {
                if lines[index].trimmingCharacters(in: .whitespaces) == "<!-- runnable -->", lines[index + 1] == "```sh",
                    let end = lines[(index + 2)...].firstIndex(of: "```")
                {
                    blocks.append(
                        Block(document: document, line: index + 3, text: lines[(index + 2)..<end].joined(separator: "\n")))
                    index = end
                }
                index += 1
            }
        }
        return blocks
    }()

    @Test("there are runnable blocks: the CLI session, the preview, the service walk-through")
    func found() {
        #expect(Set(Self.blocks.map(\.document)).isSuperset(of: ["docs/cli.md", "docs/pages.md", "docs/serve.md"]))
    }

    @Test("each runs as written", arguments: blocks)
    func runs(_ block: Block) async throws {
        let folder = try TemporaryDirectory.make("runnable-docs")
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = TestArchiveTable.packageRoot
        for shared in ["TestArchives", "Samples"] {
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(shared), withDestinationURL: root.appendingPathComponent(shared))
        }
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("orders"), withDestinationURL: OrdersBinary.url)
        let home = folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let port = try Self.freePort()
        var script = ["set -euo pipefail", "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT"]
        for line in Self.commandLines(of: block.text) {
            let text = line.replacingOccurrences(of: "swift run orders ", with: "orders ")
                .replacingOccurrences(of: "/tmp/", with: folder.path + "/tmp/")
                .replacingOccurrences(of: "8080", with: String(port))
            if let expected = text.firstMatch(of: #/#\s*exit (\d+)\b/#).map({ String($0.1) }) {
                script.append(
                    "set +e; \(text)\nstatus=$?; set -e; [ \"$status\" = \(expected) ] || "
                        + "{ echo \"expected exit \(expected), got $status: \(line.prefix(60))\" >&2; exit 1; }")
            } else {
                script.append(text)
            }
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        let result = try await OrdersProcess.run(
            executable: URL(fileURLWithPath: "/bin/bash"), ["-c", script.joined(separator: "\n")],
            environment: [
                "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "HOME": home.path,
                "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            ], in: folder, timeout: 240)
        #expect(result.status == 0, "\(block): \(result.stderr.suffix(2000))")
    }

    /// A block's lines as commands: continuation lines joined, `swift build` lines left out.
    static func commandLines(of text: String) -> [String] {
        var lines: [String] = []
        var pending = ""
        for line in text.components(separatedBy: "\n") {
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
                continue
            }
            let whole = pending + line
            pending = ""
            if whole.trimmingCharacters(in: .whitespaces).hasPrefix("swift build") { continue }
            lines.append(whole)
        }
        return lines
    }

    /// A port nothing listens on now.
    static func freePort() throws -> Int {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(probe) }
        return Int(UInt16(bigEndian: try SilentListener.bindToLoopback(probe).sin_port))
    }
}
