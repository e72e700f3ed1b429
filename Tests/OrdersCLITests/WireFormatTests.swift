import Foundation
import TestArchiveTable
import Testing

/// The one wire format, through the real binary: amounts keep their scale, every command that
/// prints data has `--json`, keys are sorted and always present.
@Suite("Wire format: --json everywhere, amounts as written")
struct WireFormatTests {
    typealias Session = FinanceCommandsTests.Session

    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("a feed's \"64.80\" comes back as \"64.80\": queries, history, and after a reopen")
    func financeAmountsKeepScale() async throws {
        let session = try await Session()
        let transactions = try await session.run(["finance", "transactions", "--json"])
        #expect(transactions.status == 0)
        #expect(transactions.stdout.contains(#""transactionAmount":{"amount":"64.80","currencyCode":"EUR"}"#))
        #expect(!transactions.stdout.contains(#""amount":"64.8""#))
        let balances = try await session.run(["finance", "balances", "--account", FinanceCommandsTests.card, "--json"])
        #expect(balances.stdout.contains(#""amount":"412.30""#))
        let history = try await session.run([
            "finance", "history", "transactions", "--account", FinanceCommandsTests.checking, "--json",
        ])
        #expect(history.stdout.contains(#""amount":"64.80""#))
    }

    @Test("order.json's \"49.00\" stays \"49.00\" in show --json")
    func orderAmountsKeepScale() async throws {
        let workspace = try StoreWorkspace()
        let file = try workspace.archive("a.order")
        await #expect(try workspace.run(["add", file]).status == 0)
        let show = try await workspace.run(["show", "--type", TestOrderArchive.orderTypeIdentifier, "--id", "ORDER-1", "--json"])
        #expect(show.status == 0)
        #expect(show.stdout.contains(#""amount":"49.00""#))
        #expect(show.stdout.contains(#""amount":"24.50""#))
    }

    @Test("pack --json says what was written; to stdout (-o -), the JSON goes to stderr")
    func packJSON() async throws {
        let directory = try TemporaryDirectory.make("wire-pack")
        let output = directory.appendingPathComponent("full.order")
        let pack = try await OrdersProcess.run(
            ["pack", "sources/full"] + PackCommandTests.signing + ["-o", output.path, "--json"])
        #expect(pack.status == 0, "\(pack.stderr)")
        let written = try Self.object(pack.stdout)
        #expect(written["file"] as? String == output.path)
        #expect((written["bytes"] as? Int) == (try Data(contentsOf: output)).count)
    }

    @Test("access grant, deny and revoke print the client's access with --json")
    func accessJSON() async throws {
        let session = try await Session(grant: false)
        let granted = try await session.run(["access", "grant", "--account", FinanceCommandsTests.card, "--json"])
        #expect(granted.status == 0)
        let access = try Self.object(granted.stdout)
        #expect(access["status"] as? String == "authorized")
        #expect(((access["accounts"] as? [[String: Any]])?.first?["accountID"] as? String) == FinanceCommandsTests.card)
        #expect(access.keys.sorted() == ["accounts", "client", "orderTypes", "status"])
        let revoked = try Self.object(try await session.run(["access", "revoke", "--json"]).stdout)
        #expect(revoked["status"] as? String == "denied")
        // Without --json: text, as before.
        await #expect(try session.run(["access", "deny"]).stdout == "com.example.budget: denied\n")
    }

    @Test("finance history prints text by default, one JSON object per batch with --json")
    func historyText() async throws {
        let session = try await Session()
        let text = try await session.run(["finance", "history", "transactions", "--account", FinanceCommandsTests.checking])
        #expect(text.status == 0)
        #expect(text.lines.first == "transactions/\(FinanceCommandsTests.checking): 3 inserted, 0 updated, 0 deleted")
        #expect(text.lines.count == 4)
        #expect(text.lines.dropFirst().allSatisfy { $0.hasPrefix("  inserted ") })
        let json = try await session.run([
            "finance", "history", "transactions", "--account", FinanceCommandsTests.checking, "--json",
        ])
        let batch = try Self.object(json.stdout)
        #expect(batch.keys.sorted() == ["deleted", "inserted", "newToken", "stream", "updated"])
    }

    @Test("keys are sorted and unknown facts are null, not missing")
    func sortedAndPresent() async throws {
        let result = try await OrdersProcess.run(
            ["verify", "--json", "--trust-root", "pki/root.pem", "invalid/not-a-zip.order"])
        #expect(result.status == 1)
        let line = try #require(result.lines.first)
        let object = try Self.object(line)
        #expect(object["signingTime"] is NSNull)
        let keyOrder = ["archiveSHA256", "createdAt", "errors", "file", "leafNotAfter", "merchant", "orderIdentifier"]
        var position = line.startIndex
        for key in keyOrder {
            let range = try #require(line.range(of: "\"\(key)\":", range: position..<line.endIndex), "\(key)")
            position = range.upperBound
        }
    }
}
