import Foundation
import TestArchiveTable
import Testing

@Suite("orders keys")
struct KeysCommandTests {
    @Test("create prints the key once, list never shows it, revoke ends it")
    func lifecycle() throws {
        let workspace = try StoreWorkspace()
        let created = try workspace.run(["keys", "create", "--order-type", "order.com.example.shop", "--name", "shop backend"])
        #expect(created.status == 0, "\(created.stderr)")
        let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("wok_") && token.count == 4 + 16 + 1 + 64, "\(token)")
        #expect(created.stderr.contains("not shown again"))
        let identifier = String(token.split(separator: "_")[1])

        let listed = try workspace.run(["keys", "list"])
        #expect(listed.status == 0)
        #expect(listed.lines.first?.hasPrefix("KEY") == true)
        #expect(listed.stdout.contains(identifier) && listed.stdout.contains("shop backend"))
        #expect(!listed.stdout.contains(String(token.suffix(64))), "the secret is never listed")
        // The store keeps only a hash of the secret.
        let database = try Data(contentsOf: URL(fileURLWithPath: workspace.store))
        #expect(database.range(of: Data(token.suffix(64).utf8)) == nil)

        let json = try workspace.run(["keys", "list", "--json"])
        #expect(json.stdout.contains(#""revokedAt":null"#) && json.stdout.contains(#""token":null"#))

        let revoked = try workspace.run(["keys", "revoke", identifier])
        #expect(revoked.status == 0 && revoked.stdout.contains("revoked \(identifier)"))
        let again = try workspace.run(["keys", "revoke", identifier])
        #expect(again.status == 0 && again.stdout.contains("already revoked"))
        #expect(try workspace.run(["keys", "list", "--json"]).stdout.contains(#""revokedAt":"20"#))
    }

    @Test("usage errors and an unknown key")
    func errors() throws {
        let workspace = try StoreWorkspace()
        let noType = try workspace.run(["keys", "create"])
        #expect(noType.status == 2 && noType.stderr.contains("--order-type"))
        #expect(!FileManager.default.fileExists(atPath: workspace.store), "a refused command creates no store")
        _ = try workspace.run(["keys", "create", "--order-type", "t"])
        let unknown = try workspace.run(["keys", "revoke", "0123456789abcdef"])
        #expect(unknown.status == 1 && unknown.stderr.contains("apiKey.unknown"), "\(unknown.stderr)")
        let empty = try workspace.run(["keys", "create", "--order-type", ""])
        #expect(empty.status == 1 && empty.stderr.contains("apiKey.noOrderTypes"), "\(empty.stderr)")
    }
}
