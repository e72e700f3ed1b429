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
    func transactionsOfUnknownAccount(_ which: String) async throws {
        // The sample feed has two accounts; the client sees only the card.
        let session = try await Session(grant: false)
        _ = try await session.run(["access", "grant", "--account", FinanceCommandsTests.card])
        let account = which == "unshared" ? FinanceCommandsTests.checking : which
        let result = try await session.run(["finance", "transactions", "--account", account])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("orders: access.unknownAccount"), "\(result.stderr)")
        // The shared one still lists its transactions.
        let shared = try await session.run(["finance", "transactions", "--account", FinanceCommandsTests.card])
        #expect(shared.status == 0)
        #expect(!shared.lines.isEmpty)
    }
}

extension UserFacingDefectsTests {
    @Test(
        "a token file holding garbage is finance.historyTokenInvalid, exit 1, whatever the bytes",
        arguments: ["garbage", "{\"a\":1}", "\u{0}\u{1}\u{2}", "[]", "{\"stream\":7}"])
    func garbageTokenFile(_ bytes: String) async throws {
        let session = try await Session()
        let file = session.workspace.folder.appendingPathComponent("token.json")
        try Data(bytes.utf8).write(to: file)
        let result = try await session.run([
            "finance", "history", "transactions", "--account", FinanceCommandsTests.checking, "--token-file", file.path,
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("does not hold a history token"))
        #expect(result.stderr.contains("finance.historyTokenInvalid"))
        #expect(result.stdout.isEmpty)
        #expect(try Data(contentsOf: file) == Data(bytes.utf8))  // left as it was
    }
}

extension UserFacingDefectsTests {
    @Test("a feed nested deeper than the cap says so and where; a huge value is never echoed whole")
    func deeplyNestedFeed() async throws {
        let session = try await Session()
        let folder = session.workspace.folder
        let nested = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        let deep = folder.appendingPathComponent("deep.json")
        try Data(#"{"transactions":[{},{},{"merchantName":\#(nested)}]}"#.utf8).write(to: deep)
        let result = try await session.run(["finance", "import", deep.path])
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix("orders: feed.invalid: transactions[2].merchantName: nesting deeper than 16 levels"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("not valid JSON"))

        let json = try await session.run(["finance", "import", deep.path, "--json"])
        let rejection = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let error = try #require(rejection["error"] as? [String: Any])
        #expect(error["path"] as? String == "transactions[2].merchantName")

        // An account type of 100,000 characters, and a key of 100,000 characters over a deep value.
        let long = String(repeating: "B", count: 100_000)
        let cases = [
            #"{"accounts":[{"id":"A0000000-0000-4000-8000-000000000000","type":"\#(long)","displayName":"x","institutionName":"y","currencyCode":"EUR"}]}"#,
            #"{"\#(long)":\#(nested)}"#,
        ]
        for (index, text) in cases.enumerated() {
            let file = folder.appendingPathComponent("huge-\(index).json")
            try Data(text.utf8).write(to: file)
            let huge = try await session.run(["finance", "import", file.path])
            #expect(huge.status == 1)
            #expect(huge.stderr.hasPrefix("orders: feed.invalid: "), "\(huge.stderr)")
            #expect(huge.stderr.contains("(100000 characters)"))
            #expect(huge.stderr.utf8.count < 400, "\(huge.stderr.utf8.count) bytes")
        }
    }
}

extension UserFacingDefectsTests {
    /// A store holding `count` versions of the small order as different orders.
    static func store(withOrders count: Int) async throws -> StoreWorkspace {
        let workspace = try StoreWorkspace()
        let files = try (0..<count).map { index in
            try workspace.archive(
                "\(index).order", orderIdentifier: "ORDER-\(index)",
                updatedAt: "2026-01-15T09:\(String(format: "%02d", index / 60)):\(String(format: "%02d", index % 60))Z")
        }
        let added = try await workspace.run(["add"] + files)
        guard added.status == 0 else { throw FinanceCommandsTests.CommandFailed(result: added) }
        return workspace
    }

    @Test("orders list says how many more orders there are and how to see them; --json is unaffected")
    func listSaysWhatIsLeft() async throws {
        let workspace = try await Self.store(withOrders: 105)
        let first = try await workspace.run(["list"])
        #expect(first.status == 0)
        #expect(first.lines.count == 1 + 100 + 1)  // header, the page, the note
        #expect(first.lines.last == "… 5 more orders (105 in all); see them with --offset 100 or --limit 105")
        let next = try await workspace.run(["list", "--offset", "100"])
        #expect(next.lines.count == 1 + 5)
        #expect(next.lines.last?.contains("ORDER-0") == true)
        let middle = try await workspace.run(["list", "--limit", "10", "--offset", "50"])
        #expect(middle.lines.last == "… 45 more orders (105 in all); see them with --offset 60 or --limit 55")
        let json = try await workspace.run(["list", "--json"])
        #expect(json.lines.count == 100)
        #expect(json.lines.allSatisfy { $0.hasPrefix("{") })
        let all = try await workspace.run(["list", "--limit", "105"])
        #expect(all.lines.count == 1 + 105)
    }

    @Test("list and show resolve localized keys from order.strings: --locale, LANG, then the first localization")
    func localizedKeys() async throws {
        let workspace = try StoreWorkspace()
        let localized = TestArchiveTable.directory.appendingPathComponent("valid/localized.order").path
        await #expect(try workspace.run(["add", localized]).status == 0)
        let show = ["show", "--type", TestOrderArchive.orderTypeIdentifier, "--id", "ORDER-L10N-1"]
        func merchant(_ arguments: [String], environment: [String: String] = [:]) async throws -> String {
            let result = try await workspace.run(arguments, environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            return (arguments[0] == "list" ? result.lines.last : result.lines.first { $0.hasPrefix("  merchant") }) ?? ""
        }
        await #expect(try merchant(["list"]).hasSuffix("  Beispiel-Laden"))  // no language: the first localization, de
        await #expect(try merchant(["list"], environment: ["LANG": "en_GB.UTF-8"]).hasSuffix("  Example Shop"))
        await #expect(try merchant(["list", "--locale", "zh-Hans-CN"], environment: ["LANG": "en_GB.UTF-8"]).hasSuffix("  示例商店"))
        await #expect(try merchant(["list"], environment: ["LANG": "fr_FR.UTF-8"]).hasSuffix("  Beispiel-Laden"))
        await #expect(try merchant(show, environment: ["LC_ALL": "en_US.UTF-8", "LANG": "de_DE"]).contains("Example Shop"))
        let german = try await workspace.run(show + ["--locale", "de"])
        #expect(german.stdout.contains("Beispiel-Laden (merchant.com.example.shop)"))
        #expect(german.stdout.contains(#"open — Ihre Bestellung ist unterwegs "bald""#))
        #expect(!german.stdout.contains("MERCHANT_NAME") && !german.stdout.contains("STATUS_SHIPPED"))
        // --json keeps order.json's own values.
        await #expect(try workspace.run(show + ["--json"]).stdout.contains(#""displayName":"MERCHANT_NAME""#))
    }

    @Test(
        "every date option takes a plain day (its start in UTC) or RFC 3339, and a bad date is one usage error everywhere")
    func datesInFilters() async throws {
        let workspace = try await Self.store(withOrders: 1)
        let since = try await workspace.run(["list", "--since", "2026-01-15"])
        #expect(since.status == 0)
        #expect(since.lines.count == 2)
        await #expect(try workspace.run(["list", "--since", "2026-01-16"]).stdout.isEmpty)
        let check = try await workspace.run([
            "check", "--type", TestOrderArchive.orderTypeIdentifier, "--id", "ORDER-0", "--updated-date", "2026-01-15",
        ])
        #expect(check.stdout == "newerExists\n")
        let session = try await Session()
        await #expect(try session.run(["finance", "transactions", "--since", "2026-11-01", "--until", "2026-11-03"]).status == 0)

        let bad: [[String]] = [
            ["list", "--since", "2026-02-30"],
            ["check", "--type", "t", "--id", "i", "--updated-date", "yesterday"],
            ["verify", "--at", "2026-1-1", "x.order"],
            ["finance", "transactions", "--until", "2026-01-01T25:00:00Z"],
            ["pack", "--signing-time", "2026/01/01", "--certificate", "c", "--key", "k", "-o", "o", "src"],
        ]
        for arguments in bad {
            let result = try await workspace.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(
                result.stderr.contains(
                    "expected a day such as 2026-01-15 (its start, UTC) or an RFC 3339 date-time such as 2026-01-15T09:30:00Z"),
                "\(arguments): \(result.stderr)")
        }
    }

    @Test("human tables have headers and aligned columns; amounts are printed one way, 49.00 EUR")
    func tablesAndMoney() async throws {
        let session = try await Session()
        let transactions = try await session.run(["finance", "transactions", "--account", FinanceCommandsTests.checking])
        #expect(transactions.status == 0)
        let header = try #require(transactions.lines.first)
        #expect(header.hasPrefix("DATE        STATUS"))
        #expect(header.contains("AMOUNT") && header.contains("DESCRIPTION") && header.hasSuffix("MERCHANT"))
        // Every amount ends in the same column, right-aligned under AMOUNT.
        let amountEnd = try #require(header.range(of: "AMOUNT")).upperBound.utf16Offset(in: header)
        for line in transactions.lines.dropFirst() {
            let prefix = String(line.utf16.prefix(amountEnd)) ?? ""
            #expect(prefix.hasSuffix(" EUR"), "\(line)")
            #expect(prefix.range(of: #"-?\d+\.\d\d EUR$"#, options: .regularExpression) != nil, "\(line)")
        }
        let accounts = try await session.run(["finance", "accounts"])
        #expect(accounts.lines.first?.hasPrefix("ACCOUNT") == true && accounts.lines.count == 3)
        let balances = try await session.run(["finance", "balances", "--account", FinanceCommandsTests.checking])
        #expect(balances.lines.first?.contains("AVAILABLE") == true)
        #expect(balances.lines.dropFirst().allSatisfy { $0.range(of: #"\d\.\d\d EUR"#, options: .regularExpression) != nil })

        let workspace = try StoreWorkspace()
        let localized = TestArchiveTable.directory.appendingPathComponent("valid/localized.order").path
        await #expect(try workspace.run(["add", localized]).status == 0)
        let show = try await workspace.run(["show", "--type", TestOrderArchive.orderTypeIdentifier, "--id", "ORDER-L10N-1"])
        #expect(show.stdout.contains("  payment      49.00 EUR (paid)"), "\(show.stdout)")
        let list = try await workspace.run(["list"])
        #expect(list.lines.first?.hasPrefix("UPDATED") == true)
        #expect(list.lines.count == 2)
        let history = try await workspace.run(["history", "--type", TestOrderArchive.orderTypeIdentifier, "--id", "ORDER-L10N-1"])
        #expect(history.lines.first?.hasPrefix("UPDATED") == true && history.lines.first?.hasSuffix("SHA-256") == true)
    }

    @Test("docs/cli.md names exactly the commands that take --trust-root (issue 53, item 8)")
    func trustRootRuleDocumented() async throws {
        let cli = try String(contentsOf: TestArchiveTable.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let sentence = try #require(
            cli.components(separatedBy: "\n\n").first { $0.contains("The commands that verify a signature") })
        let rule = try #require(
            sentence.components(separatedBy: "`ORDERS_TRUST_ROOTS`: ").last?.components(separatedBy: ".").first)
        let named = Set(rule.matches(of: /`([a-z ]+)`/).map { String($0.output.1) })
        let commands = [
            "verify", "pack", "add", "check", "list", "show", "history", "export", "remove", "doctor", "migrate", "serve",
            "keys create", "signing add", "signing list", "signing remove", "author", "preview", "link", "owner set-password",
            "access status", "restrict status", "finance import", "finance accounts",
        ]
        var taking: Set<String> = []
        for command in commands {
            let help = try await OrdersProcess.run(command.split(separator: " ").map(String.init) + ["--help"])
            #expect(help.status == 0, "\(command): \(help.stderr)")
            if help.stdout.contains("--trust-root") { taking.insert(command) }
        }
        #expect(named == taking)
    }

    @Test("commands that verify nothing take no --trust-root, and a missing ORDERS_TRUST_ROOTS path does not break them")
    func trustRootsOnlyWhereVerified() async throws {
        let workspace = try await Self.store(withOrders: 1)
        let id = ["--type", TestOrderArchive.orderTypeIdentifier, "--id", "ORDER-0"]
        let readers: [[String]] = [
            ["list"], ["show"] + id, ["history"] + id, ["check"] + id, ["export", "-o", "-"] + id, ["remove"] + id,
        ]
        let missing = ["ORDERS_TRUST_ROOTS": workspace.folder.appendingPathComponent("no-such-root.pem").path]
        for arguments in readers {
            let result = try await workspace.run(arguments, environment: missing)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        for arguments in readers.dropLast() {
            let refused = try await workspace.run(arguments + ["--trust-root", TestArchiveTable.testRoot.path])
            #expect(refused.status == 2, "\(arguments)")
            #expect(refused.stderr.contains("Unknown option '--trust-root'"), "\(arguments): \(refused.stderr)")
        }
        // The commands that verify still refuse a root they cannot read.
        let add = try await workspace.run(["add", try workspace.archive("a.order", orderIdentifier: "A")], environment: missing)
        #expect(add.status == 2)
        #expect(add.stderr.contains("cannot read trust root"))
    }

    @Test("ORDERS_DATA_TYPES with an unknown name refuses to start, naming the variable and the accepted values")
    func unknownDataType() async throws {
        let workspace = try await Self.store(withOrders: 1)
        for arguments in [["list"], ["check", "--type", TestOrderArchive.orderTypeIdentifier, "--id", "ORDER-0"]] {
            let result = try await workspace.run(arguments, environment: ["ORDERS_DATA_TYPES": "orders,finance"])
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr
                    == "orders: configuration.invalid: ORDERS_DATA_TYPES: 'finance' is not accepted; use a comma-separated list of financialData, orders\n"
            )
        }
        await #expect(try workspace.run(["list"], environment: ["ORDERS_DATA_TYPES": "orders, financialData"]).status == 0)
    }

    @Test("access request: end of input leaves the client notDetermined and says how to grant or deny")
    func requestWithoutAnswer() async throws {
        let session = try await Session(grant: false)
        for input in ["", "maybe\n", "\u{FF}\u{FE}\n"] {
            let ended = try await session.run(["access", "request", "--client", "com.example.other"], stdin: input)
            #expect(ended.status == 5)
            #expect(ended.stdout == "notDetermined\n")
            #expect(ended.stderr.contains("com.example.other stays notDetermined"))
            #expect(ended.stderr.contains("orders access grant --client com.example.other --account ID"))
            #expect(ended.stderr.contains("orders access deny --client com.example.other"))
        }
        let status = try await session.run(["access", "status", "--client", "com.example.other"])
        #expect(status.stdout == "com.example.other: notDetermined\n")
        // The next request asks again, and an answer after an unreadable one counts.
        let answered = try await session.run(["access", "request", "--client", "com.example.other"], stdin: "\u{FF}\nall\n")
        #expect(answered.stdout == "authorized\n")
        #expect(answered.stderr.contains("Answer with account numbers"))
    }
}

extension UserFacingDefectsTests {
    @Test("a rejected feed creates no store file")
    func rejectedFeedCreatesNoStore() async throws {
        let workspace = try StoreWorkspace()
        let feed = workspace.folder.appendingPathComponent("bad.json")
        try Data(#"{"accounts": "#.utf8).write(to: feed)
        let result = try await workspace.run(["finance", "import", feed.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("orders: feed.invalid: accounts: the feed is not valid JSON"))
        #expect(!FileManager.default.fileExists(atPath: workspace.store))
    }
}
