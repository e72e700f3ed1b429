import Foundation
import TestArchiveTable
import Testing
import WalletConsent
import WalletOrders

/// `orders owner set-password` and `orders finance clients`: the password from standard input
/// only, clients with secrets shown once, and exit statuses as documented.
@Suite("orders owner and orders finance clients")
struct ConsentCommandsTests {
    @Test("set-password reads the first line of standard input; the store keeps a bcrypt hash")
    func setPassword() async throws {
        let workspace = try StoreWorkspace()
        let password = "horse " + TestSecret.random()
        let set = try await workspace.run(["owner", "set-password", "--cost", "4"], stdin: "\(password)\nignored\n")
        #expect(
            set.status == 0
                && set.stdout == "owner password set; every session is signed out and every browser must sign in again\n",
            "\(set.stderr)")
        let database = workspace.storeBytes()
        #expect(database.range(of: Data(password.utf8)) == nil)
        #expect(database.range(of: Data("$2b$04$".utf8)) != nil)
        #expect(!set.stderr.contains(password) && !set.stdout.contains(password))
    }

    @Test("owner unlock forgets every counted sign-in attempt: an address past its limit may sign in again")
    func unlock() async throws {
        let workspace = try StoreWorkspace()
        #expect(try await workspace.run(["owner", "set-password", "--cost", "4"], stdin: "correct horse battery\n").status == 0)
        let wallet = try WalletStore(path: workspace.store)
        for _ in 0..<5 {
            await #expect(throws: ConsentError.wrongPassword) {
                try await wallet.consent.signIn(password: "a wrong password", from: "198.51.100.4")
            }
        }
        await #expect(throws: ConsentError.self) {
            try await wallet.consent.signIn(password: "correct horse battery", from: "198.51.100.4")
        }
        let unlocked = try await workspace.run(["owner", "unlock"])
        #expect(
            unlocked.status == 0 && unlocked.stdout == "sign-in unlocked: 5 counted attempts forgotten\n", "\(unlocked.stderr)")
        _ = try await wallet.consent.signIn(password: "correct horse battery", from: "198.51.100.4")
        let again = try await workspace.run(["owner", "unlock"])
        #expect(again.stdout == "sign-in unlocked: 0 counted attempts forgotten\n")
    }

    @Test("a short password, no input, or a cost out of range: refused, nothing stored")
    func refusals() async throws {
        let workspace = try StoreWorkspace()
        let short = try await workspace.run(["owner", "set-password"], stdin: "short\n")
        #expect(short.status == 1)
        #expect(
            short.stderr
                == "orders: consent.unacceptablePassword: the password cannot be used: it must be 10–72 bytes long (it is 5)\n")
        let none = try await workspace.run(["owner", "set-password"], stdin: "")
        #expect(none.status == 2 && none.stderr.contains("no password was given on standard input"))
        let cost = try await workspace.run(["owner", "set-password", "--cost", "3"], stdin: "correct horse battery\n")
        #expect(cost.status == 2 && cost.stderr.contains("--cost takes 4–31"))
        let tooLong = try await workspace.run(["owner", "set-password"], stdin: String(repeating: "p", count: 5_000) + "\n")
        #expect(tooLong.status == 2 && tooLong.stderr.contains("longer than 4096 bytes"))
    }

    @Test("clients create prints the id and the secret once; list shows status, never the secret; revoke ends it")
    func clients() async throws {
        let workspace = try StoreWorkspace()
        let created = try await workspace.run([
            "finance", "clients", "create", "--name", "Budget", "--redirect-uri", "https://budget.example/cb", "--id",
            "com.example.budget",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.lines.first == "client_id: com.example.budget")
        let secret = try #require(created.lines.last?.split(separator: " ").last.map(String.init))
        #expect(secret.hasPrefix("wcs_") && created.stderr.contains("not shown again"))
        let app = try await workspace.run([
            "finance", "clients", "create", "--name", "App", "--redirect-uri", "com.example.app:/cb", "--public", "--json",
        ])
        #expect(app.status == 0 && app.stdout.contains(#""isPublic":true"#) && app.stdout.contains(#""clientSecret":null"#))

        let listed = try await workspace.run(["finance", "clients", "list"])
        #expect(listed.lines.first?.hasPrefix("CLIENT") == true)
        #expect(listed.stdout.contains("com.example.budget") && listed.stdout.contains("confidential"))
        #expect(listed.stdout.contains("notDetermined") && !listed.stdout.contains(secret))
        let json = try await workspace.run(["finance", "clients", "list", "--json"])
        #expect(json.lines.count == 2 && !json.stdout.contains(secret))
        let database = workspace.storeBytes()
        #expect(database.range(of: Data("com.example.budget".utf8)) != nil)
        #expect(database.range(of: Data(secret.utf8)) == nil)

        let duplicate = try await workspace.run([
            "finance", "clients", "create", "--name", "Again", "--redirect-uri", "https://x.example/cb", "--id",
            "com.example.budget",
        ])
        #expect(duplicate.status == 1 && duplicate.stderr.contains("consent.clientExists"))
        let bad = try await workspace.run([
            "finance", "clients", "create", "--name", "Bad", "--redirect-uri", "http://evil.example/cb",
        ])
        #expect(bad.status == 1 && bad.stderr.contains("consent.invalidClientRegistration"))
        let missing = try await workspace.run(["finance", "clients", "create", "--name", "None"])
        #expect(missing.status == 2 && missing.stderr.contains("--redirect-uri"))

        let revoked = try await workspace.run(["finance", "clients", "revoke", "com.example.budget"])
        #expect(revoked.status == 0 && revoked.stdout == "revoked com.example.budget\n")
        let again = try await workspace.run(["finance", "clients", "revoke", "com.example.budget"])
        #expect(again.status == 0 && again.stdout == "com.example.budget was already revoked\n")
        await #expect(
            try workspace.run(["access", "status", "--client", "com.example.budget"]).stdout.hasPrefix(
                "com.example.budget: denied"))
        let unknown = try await workspace.run(["finance", "clients", "revoke", "com.example.none"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no client 'com.example.none' is registered"))
    }
}
