import Foundation
import Testing

/// The README's quick start is two commands, and CI runs the second — the test command — as it
/// is written there (`.ci/run`'s one command line), which requires every test to run.
@Suite("Documentation: the quick start's test command is what CI runs")
struct QuickStartTests {
    /// The command lines (neither comments nor blank) of the first ```` ```sh ```` block after
    /// README.md's "## Quick start".
    static func quickStartCommands() throws -> [String] {
        let readme = try DocumentationSnippetsTests.read("README.md")
        guard let section = readme.range(of: "\n## Quick start\n") else { return [] }
        var commands: [String] = []
        var inBlock = false
        for line in readme[section.upperBound...].components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !inBlock {
                if trimmed == "```sh" { inBlock = true }
                continue
            }
            if trimmed == "```" { break }
            if !trimmed.isEmpty, !trimmed.hasPrefix("#") { commands.append(trimmed) }
        }
        return commands
    }

    @Test("two commands, each setting up first; .ci/run's command line is the second, verbatim, and nothing else")
    func ciRunsTheTestCommand() throws {
        let commands = try Self.quickStartCommands()
        #expect(commands.count == 2)
        #expect(commands.allSatisfy { $0.hasPrefix("./Scripts/setup.sh && ") })
        let script = try DocumentationSnippetsTests.read(".ci/run")
        let lines = script.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        // Besides the command: only strict mode and the working directory.
        #expect(lines.dropLast() == ["set -euo pipefail", "cd \"$(dirname \"$0\")/..\""])
        #expect(lines.last == commands.last)
    }

    @Test("the test command requires every test: Scripts/test.sh makes a skip a failure by default")
    func testCommandRequiresEverything() throws {
        let script = try DocumentationSnippetsTests.read("Scripts/test.sh")
        #expect(
            script.contains(
                "export ORDERS_REQUIRE_POSTGRES=${ORDERS_REQUIRE_POSTGRES:-1} ORDERS_REQUIRE_BROWSER=${ORDERS_REQUIRE_BROWSER:-1}"
            ))
        let exportLine = try #require(script.components(separatedBy: "\n").firstIndex { $0.hasPrefix("export ORDERS_REQUIRE") })
        // The first line that runs the Swift suites (each step is `step "what…" COMMAND…`).
        let firstTest = try #require(
            script.components(separatedBy: "\n").firstIndex { !$0.hasPrefix("#") && $0.contains("swift test --disable-xctest") })
        #expect(exportLine < firstTest)
    }

    @Test("README.md stays skimmable: at most 12 KB, the details in docs/ (issue 53, item 8)")
    func readmeSize() throws {
        let readme = try DocumentationSnippetsTests.read("README.md")
        #expect(readme.utf8.count <= 12 * 1024)
        #expect(readme.contains("docs/development.md"))
    }
}
