import Foundation
import TestArchiveTable
import Testing

/// Issue 8's user-facing defects, each through the real binary (each failed on the previous main).
@Suite("User-facing defects of issue 8")
struct UserFacingDefectsTests {
    typealias Session = FinanceCommandsTests.Session

    @Test(
        "finance transactions --account for an unknown or unshared account is access.unknownAccount, exit 1",
        arguments: ["00000000-0000-4000-8000-000000000000", "unshared"])
    func transactionsOfUnknownAccount(_ which: String) throws {
        // The sample feed has two accounts; the client sees only the card.
        let session = try Session(grant: false)
        _ = try session.run(["access", "grant", "--account", FinanceCommandsTests.card])
        let account = which == "unshared" ? FinanceCommandsTests.checking : which
        let result = try session.run(["finance", "transactions", "--account", account])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("orders: access.unknownAccount"), "\(result.stderr)")
        // The shared one still lists its transactions.
        let shared = try session.run(["finance", "transactions", "--account", FinanceCommandsTests.card])
        #expect(shared.status == 0)
        #expect(!shared.lines.isEmpty)
    }
}

extension UserFacingDefectsTests {
    @Test(
        "a token file holding garbage is finance.historyTokenInvalid, exit 1, whatever the bytes",
        arguments: ["garbage", "{\"a\":1}", "\u{0}\u{1}\u{2}", "[]", "{\"stream\":7}"])
    func garbageTokenFile(_ bytes: String) throws {
        let session = try Session()
        let file = session.workspace.folder.appendingPathComponent("token.json")
        try Data(bytes.utf8).write(to: file)
        let result = try session.run([
            "finance", "history", "transactions", "--account", FinanceCommandsTests.checking, "--token-file", file.path,
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("does not hold a history token"))
        #expect(result.stderr.contains("finance.historyTokenInvalid"))
        #expect(result.stdout.isEmpty)
        #expect(try Data(contentsOf: file) == Data(bytes.utf8))  // left as it was
    }
}
