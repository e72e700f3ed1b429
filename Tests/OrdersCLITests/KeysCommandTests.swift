import Foundation
import TestArchiveTable
import Testing

@Suite("orders keys")
struct KeysCommandTests {
    @Test("create prints the key once, list never shows it, revoke ends it")
    func lifecycle() async throws {
        let workspace = try StoreWorkspace()
        let created = try await workspace.run([
            "keys", "create", "--order-type", "order.com.example.shop", "--name", "shop backend",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("wok_") && token.count == 4 + 16 + 1 + 64, "\(token)")
        #expect(created.stderr.contains("not shown again"))
        let identifier = String(token.split(separator: "_")[1])

        let listed = try await workspace.run(["keys", "list"])
        #expect(listed.status == 0)
        #expect(listed.lines.first?.hasPrefix("KEY") == true)
        #expect(listed.stdout.contains(identifier) && listed.stdout.contains("shop backend"))
        #expect(!listed.stdout.contains(String(token.suffix(64))), "the secret is never listed")
        // The store keeps only a hash of the secret.
        let database = workspace.storeBytes()
        #expect(database.range(of: Data("shop backend".utf8)) != nil)
        #expect(database.range(of: Data(token.suffix(64).utf8)) == nil)

        let json = try await workspace.run(["keys", "list", "--json"])
        #expect(json.stdout.contains(#""revokedAt":null"#) && json.stdout.contains(#""token":null"#))

        let revoked = try await workspace.run(["keys", "revoke", identifier])
        #expect(revoked.status == 0 && revoked.stdout.contains("revoked \(identifier)"))
        let again = try await workspace.run(["keys", "revoke", identifier])
        #expect(again.status == 0 && again.stdout.contains("already revoked"))
        await #expect(try workspace.run(["keys", "list", "--json"]).stdout.contains(#""revokedAt":"20"#))
    }

    @Test("usage errors and an unknown key")
    func errors() async throws {
        let workspace = try StoreWorkspace()
        let noType = try await workspace.run(["keys", "create"])
        #expect(noType.status == 2 && noType.stderr.contains("--order-type"))
        #expect(!FileManager.default.fileExists(atPath: workspace.store), "a refused command creates no store")
        _ = try await workspace.run(["keys", "create", "--order-type", "t"])
        let unknown = try await workspace.run(["keys", "revoke", "0123456789abcdef"])
        #expect(unknown.status == 1 && unknown.stderr.contains("apiKey.unknown"), "\(unknown.stderr)")
        let empty = try await workspace.run(["keys", "create", "--order-type", ""])
        #expect(empty.status == 1 && empty.stderr.contains("apiKey.noOrderTypes"), "\(empty.stderr)")
    }

    @Test("revoke takes the whole key or its id, and nothing any keys command prints holds a piece of a secret")
    func revokeByWholeKey() async throws {
        let workspace = try StoreWorkspace()
        var outputs: [String] = []
        func run(_ arguments: [String]) async throws -> OrdersProcess.Result {
            let result = try await workspace.run(arguments, environment: ["ORDERS_LOG_LEVEL": "trace"])
            outputs.append(result.stdout + result.stderr)
            return result
        }
        let created = try await run(["keys", "create", "--order-type", "order.com.example.shop"])
        let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let identifier = String(token.split(separator: "_")[1])
        let secret = String(token.suffix(64))
        outputs.removeAll()  // create prints the key once, by design

        let second = try await run(["keys", "create", "--order-type", "order.com.example.shop", "--json"])
        outputs.removeAll()
        let otherToken = String(second.stdout.split(separator: "\"").first { $0.hasPrefix("wok_") } ?? "")
        #expect(otherToken.count == 85)

        // A whole key whose secret is wrong: refused, naming the id only, nothing revoked.
        let mistyped = "wok_\(identifier)_" + String(secret.dropLast()) + (secret.last == "0" ? "1" : "0")
        let refused = try await run(["keys", "revoke", mistyped])
        #expect(refused.status == 1 && refused.stderr.contains("apiKey.secretMismatch"), "\(refused.stderr)")
        #expect(refused.stderr.contains(identifier))
        // An unknown whole key, or one cut short: the identifier only.
        let unknown = try await run(["keys", "revoke", "wok_0123456789abcdef_" + secret])
        #expect(unknown.status == 1 && unknown.stderr.contains("apiKey.unknown") && unknown.stderr.contains("0123456789abcdef"))
        let cut = try await run(["keys", "revoke", "wok_0123456789abcdef_" + secret.prefix(40)])
        #expect(cut.status == 1 && cut.stderr.contains("apiKey.unknown"))
        await #expect(try run(["keys", "list", "--json"]).stdout.contains(#""revokedAt":null"#))

        // The whole key revokes it, and says which by id.
        let revoked = try await run(["keys", "revoke", token])
        #expect(revoked.status == 0 && revoked.stdout == "revoked \(identifier)\n", "\(revoked.stdout)")
        let again = try await run(["keys", "revoke", token])
        #expect(again.status == 0 && again.stdout == "\(identifier) was already revoked\n")
        _ = try await run(["keys", "list"])
        _ = try await run(["keys", "list", "--json"])

        // No 8 characters in a row of either secret in anything printed or logged.
        for key in [secret, String(otherToken.suffix(64))] {
            for start in 0...(key.count - 8) {
                let piece = String(key.dropFirst(start).prefix(8))
                for output in outputs { #expect(!output.contains(piece), "a piece of a secret was printed: \(output)") }
            }
        }
    }
}
