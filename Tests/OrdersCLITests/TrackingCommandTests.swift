import Foundation
import TestArchiveTable
import Testing

/// `orders tracking` as docs/cli.md promises it: each exit status, secrets never printed.
@Suite("orders tracking")
struct TrackingCommandTests {
    static let type = "order.com.example.shop"

    func secretFile(_ workspace: StoreWorkspace, _ name: String, _ secret: String) throws -> String {
        let url = workspace.folder.appendingPathComponent(name)
        try Data((secret + "\n").utf8).write(to: url)
        chmod(url.path, 0o600)
        return url.path
    }

    @Test("add prints the path once, list never shows a secret, secrets rotates, remove ends it; unknown endpoints exit 1")
    func lifecycle() async throws {
        let workspace = try StoreWorkspace()
        let first = try secretFile(workspace, "first", "first-secret-value")
        let second = try secretFile(workspace, "second", "second-secret-value")
        let added = try await workspace.run([
            "tracking", "add", "--provider", "easypost", "--order-type", Self.type, "--secret-file", first,
            "--public-url", "https://wallet.example.com",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let url = try #require(added.lines.first)
        #expect(url.hasPrefix("https://wallet.example.com/api/v1/tracking/easypost/trk_"))
        let endpoint = String(try #require(url.split(separator: "/").last))
        #expect(!(added.stdout + added.stderr).contains("first-secret-value"))

        let listed = try await workspace.run(["tracking", "list"])
        #expect(listed.status == 0 && listed.stdout.contains(endpoint) && listed.lines.first?.hasPrefix("ENDPOINT") == true)
        let json = try await workspace.run(["tracking", "list", "--json"])
        #expect(json.stdout.contains(#""secrets":1"#) && !json.stdout.contains("secret-value"))

        let rotated = try await workspace.run([
            "tracking", "secrets", endpoint, "--secret-file", second, "--secret-file", first,
        ])
        #expect(rotated.status == 0 && rotated.stdout.contains("two secrets"), "\(rotated.stderr)")
        await #expect(try workspace.run(["tracking", "list", "--json"]).stdout.contains(#""secrets":2"#))
        let unknown = try await workspace.run(["tracking", "secrets", "trk_unknown", "--secret-file", second])
        #expect(unknown.status == 1 && unknown.stderr.contains("no tracking endpoint"))

        let events = try await workspace.run(["tracking", "events", "--unmatched"])
        #expect(events.status == 0 && events.stdout.isEmpty, "nothing received: nothing listed")

        let removed = try await workspace.run(["tracking", "remove", endpoint])
        #expect(removed.status == 0 && removed.stdout.contains("removed \(endpoint)"))
        #expect(try await workspace.run(["tracking", "remove", endpoint]).status == 1)
        #expect(try await workspace.run(["tracking", "list", "--json"]).stdout.isEmpty)
    }

    @Test("refusals: the generic provider, three secrets, a replay without an endpoint or restricted; a body not the provider's")
    func refusals() async throws {
        let workspace = try StoreWorkspace()
        let secret = try secretFile(workspace, "secret", "a-secret-value")
        let generic = try await workspace.run([
            "tracking", "add", "--provider", "generic", "--order-type", Self.type, "--secret-file", secret,
        ])
        #expect(generic.status == 2 && generic.stderr.contains("tracking.invalidConfiguration"), "\(generic.stderr)")
        let three = try await workspace.run(
            ["tracking", "add", "--provider", "aftership", "--order-type", Self.type]
                + Array(repeating: ["--secret-file", secret], count: 3).flatMap { $0 })
        #expect(three.status == 2 && three.stderr.contains("twice while rotating"))
        let body = workspace.folder.appendingPathComponent("body.json")
        try Data(#"{"event":"tracking_update"}"#.utf8).write(to: body)
        let none = try await workspace.run(["tracking", "replay", body.path, "--provider", "aftership"])
        #expect(none.status == 2 && none.stderr.contains("no aftership endpoint"), "\(none.stderr)")

        let added = try await workspace.run([
            "tracking", "add", "--provider", "aftership", "--order-type", Self.type, "--secret-file", secret,
        ])
        #expect(added.status == 0)
        let invalid = try await workspace.run(["tracking", "replay", body.path, "--provider", "aftership"])
        #expect(invalid.status == 1, "\(invalid.stderr)")
        #expect(invalid.stderr.contains("tracking.invalidBody: ts: a required timestamp is missing"), "\(invalid.stderr)")
        #expect(try await workspace.run(["restrict", "on", "--type", "orders"]).status == 0)
        let restricted = try await workspace.run(["tracking", "replay", body.path, "--provider", "aftership"])
        #expect(restricted.status == 6, "\(restricted.stderr)")
    }
}
