import Foundation
import TestArchiveTable
import Testing

@Suite("orders finance, access and restrict")
struct FinanceCommandsTests {
    static let checking = "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B"
    static let card = "9C8B7A6F-5E4D-4C3B-8A29-1F0E9D8C7B6A"
    static var samples: URL { TestArchiveTable.packageRoot.appendingPathComponent("Samples") }

    /// A workspace with the sample feed imported; commands run as com.example.budget.
    struct Session {
        let workspace: StoreWorkspace
        var environment: [String: String] { ["ORDERS_STORE": workspace.store, "ORDERS_CLIENT": "com.example.budget"] }

        init(grant: Bool = true) async throws {
            workspace = try StoreWorkspace()
            let imported = try await run([
                "finance", "import", FinanceCommandsTests.samples.appendingPathComponent("finance-feed.json").path,
            ])
            guard imported.status == 0 else { throw CommandFailed(result: imported) }
            if grant {
                let granted = try await run([
                    "access", "grant", "--account", "\(FinanceCommandsTests.checking):2026-11-05T00:00:00Z", "--account",
                    FinanceCommandsTests.card,
                ])
                guard granted.status == 0 else { throw CommandFailed(result: granted) }
            }
        }

        func run(_ arguments: [String], stdin: String? = nil, extra: [String: String] = [:]) async throws -> OrdersProcess.Result
        {
            try await OrdersProcess.run(
                arguments, environment: environment.merging(extra) { $1 }, stdinText: stdin, in: workspace.folder)
        }
    }

    struct CommandFailed: Error {
        let result: OrdersProcess.Result
    }

    @Test("a short session: import, not authorized (5), grant, query with signed amounts")
    func session() async throws {
        let session = try await Session(grant: false)
        let denied = try await session.run(["finance", "accounts"])
        #expect(denied.status == 5)
        #expect(
            denied.stderr.hasPrefix(
                "orders: access.notAuthorized: client com.example.budget is not authorized for financial data (status notDetermined); "
            ), "\(denied.stderr)")
        // It says how to grant, with the client filled in.
        #expect(denied.stderr.contains("orders access grant --client com.example.budget --account ID"))

        _ = try await session.run([
            "access", "grant", "--account", "\(Self.checking):2026-11-05T00:00:00Z", "--account", Self.card,
        ])
        let accounts = try await session.run(["finance", "accounts"])
        #expect(
            accounts.lines == [
                "ACCOUNT                               TYPE       CURRENCY  NAME              INSTITUTION",
                "\(Self.checking)  asset      EUR       Everyday Account  Example Bank",
                "\(Self.card)  liability  EUR       Travel Card       Example Bank",
            ])
        let transactions = try await session.run(["finance", "transactions"])
        #expect(transactions.status == 0)
        #expect(transactions.lines.count == 1 + 5)  // the checking account only from 2026-11-05
        #expect(transactions.lines.first == "DATE        STATUS       AMOUNT  DESCRIPTION     MERCHANT")
        #expect(transactions.lines.dropFirst().first == "2026-11-09  booked   -64.80 EUR  Groceries       Corner Market")
        #expect(transactions.lines.contains("2026-11-14  booked   389.70 EUR  Hotel New York  Grand Hotel"))
        let balances = try await session.run(["finance", "balances", "--account", Self.card])
        #expect(
            balances.lines == [
                "AVAILABLE  AS OF      BOOKED  AS OF", "        -  -      412.30 EUR  2026-11-20T08:00:00Z",
            ])
    }

    @Test(
        "transaction filters, sort, offset and limit",
        arguments: [
            (["--status", "pending"], ["Coffee", "Dinner"]),
            (["--status", "pending", "--sort", "transactionDate:desc"], ["Dinner", "Coffee"]),
            (["--type", "pointOfSale", "--mcc", "5411", "--mcc", "7011"], ["Groceries", "Hotel New York"]),
            (["--account", "9C8B7A6F-5E4D-4C3B-8A29-1F0E9D8C7B6A"], ["Hotel New York", "Taxi"]),
            (["--since", "2026-11-14T00:00:00Z", "--until", "2026-11-19T00:00:00Z"], ["Hotel New York", "Taxi"]),
            (["--sort", "amount:desc", "--limit", "2"], ["Hotel New York", "Groceries"]),
            (["--sort", "effectiveDate", "--offset", "3", "--limit", "5"], ["Coffee", "Dinner"]),
        ] as [([String], [String])])
    func filters(_ options: [String], _ expected: [String]) async throws {
        let session = try await Session()
        let result = try await session.run(["finance", "transactions", "--json"] + options)
        #expect(result.status == 0, "\(result.stderr)")
        let descriptions = result.lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["transactionDescription"] as? String
        }
        #expect(descriptions == expected)
    }

    @Test(
        "bad filter values are usage errors",
        arguments: [["--status", "done"], ["--mcc", "99999"], ["--since", "yesterday"], ["--sort", "color"]])
    func badFilters(_ options: [String]) async throws {
        let result = try await Session().run(["finance", "transactions"] + options)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("orders: ") || result.stderr.hasPrefix("Error: The value 'yesterday' is invalid"))
    }

    @Test("history with a token file: catch-up, then only the changes; an invalid token exits 1")
    func historyWithTokenFile() async throws {
        let session = try await Session()
        let history = ["finance", "history", "transactions", "--account", Self.checking, "--token-file", "token.json", "--json"]
        let first = try await session.run(history)
        #expect(first.status == 0)
        let catchUpLine = try #require(first.lines.first)
        let catchUp = try #require(try JSONSerialization.jsonObject(with: Data(catchUpLine.utf8)) as? [String: Any])
        #expect((catchUp["inserted"] as? [Any])?.count == 3)
        #expect(FileManager.default.fileExists(atPath: session.workspace.folder.appendingPathComponent("token.json").path))

        await #expect(try session.run(history).stdout.isEmpty)  // caught up: nothing new
        _ = try await session.run(["finance", "import", Self.samples.appendingPathComponent("finance-feed-update.json").path])
        let changes = try await session.run(history)
        #expect(changes.lines.count == 1)
        let batchLine = try #require(changes.lines.first)
        let batch = try #require(try JSONSerialization.jsonObject(with: Data(batchLine.utf8)) as? [String: Any])
        #expect(((batch["updated"] as? [[String: Any]])?.first?["status"] as? String) == "booked")
        #expect(((batch["inserted"] as? [[String: Any]])?.first?["transactionDescription"] as? String) == "Cinema")
        #expect((batch["deleted"] as? [String]) == ["A1000000-0000-4000-8000-000000000005"])

        _ = try await session.run(["access", "revoke"])
        _ = try await session.run(["access", "grant", "--account", Self.checking])
        let stale = try await session.run(history)
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("the history token is no longer valid"))
        #expect(stale.stderr.contains("remove the token file"))
    }

    @Test("history --follow prints changes imported by another process")
    func follow() async throws {
        let session = try await Session()
        let output = session.workspace.folder.appendingPathComponent("follow.out")
        try Data().write(to: output)
        let process = Process()
        process.executableURL = OrdersProcess.binary
        process.arguments = ["finance", "history", "transactions", "--account", Self.checking, "--follow", "--json"]
        process.environment = ProcessInfo.processInfo.environment.merging(session.environment) { $1 }
        process.currentDirectoryURL = session.workspace.folder
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        func lines() -> [String] {
            ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        func wait(for count: Int) async {
            await Poll.until(timeout: .seconds(20)) { lines().count >= count }
        }
        await wait(for: 1)
        #expect(lines().count == 1)
        let imported = try await session.run([
            "finance", "import", Self.samples.appendingPathComponent("finance-feed-update.json").path,
        ])
        #expect(imported.status == 0)
        await wait(for: 2)
        #expect(lines().count == 2)
        #expect(lines().last?.contains("\"transactionDescription\":\"Cinema\"") == true)
        #expect(process.isRunning)
    }

    @Test("access request prompts once, then answers from the cached decision")
    func request() async throws {
        let session = try await Session(grant: false)
        let first = try await session.run(["access", "request"], stdin: "2\n")
        #expect(first.stdout == "authorized\n")
        #expect(first.stderr.contains("com.example.budget asks to see your financial data."))
        #expect(first.stderr.contains("  2. Travel Card (Example Bank)"))
        let second = try await session.run(["access", "request"], stdin: "deny\n")
        #expect(second.stdout == "authorized\n")
        #expect(second.stderr.isEmpty)
        await #expect(try session.run(["finance", "accounts"]).lines.count == 1 + 1)
        let other = try await session.run(["access", "request", "--client", "com.example.other"], stdin: "deny\n")
        #expect(other.stdout == "denied\n")
        let status = try await session.run(["access", "status", "--client", "com.example.budget", "--json"])
        #expect(
            status.stdout.hasPrefix(
                #"{"accounts":[{"accountID":"9C8B7A6F-5E4D-4C3B-8A29-1F0E9D8C7B6A","earliestDate":null}],"client":"com.example.budget","#
            ))
    }

    @Test("an answer the prompt cannot read is asked again")
    func requestRetries() async throws {
        let session = try await Session(grant: false)
        let retried = try await session.run(["access", "request"], stdin: "yes\n7\n1, 2\n")
        #expect(retried.stdout == "authorized\n")
        #expect(retried.stderr.components(separatedBy: "Answer with account numbers 1–2").count == 3)  // asked twice more
        await #expect(try session.run(["finance", "accounts"]).lines.count == 1 + 2)
    }

    @Test("restriction from one process is seen by the next (6) and lifted without restart")
    func restriction() async throws {
        let session = try await Session()
        await #expect(try session.run(["restrict", "on", "--type", "financialData"]).status == 0)
        let restricted = try await session.run(["finance", "transactions"])
        #expect(restricted.status == 6)
        #expect(
            restricted.stderr
                == "orders: finance.dataRestricted: access to financialData is restricted for now; try again later\n")
        let importWhileRestricted = try await session.run([
            "finance", "import", Self.samples.appendingPathComponent("finance-feed-update.json").path,
        ])
        #expect(importWhileRestricted.status == 6)
        await #expect(
            try session.run(["restrict", "status", "--type", "financialData"]).stdout.hasPrefix(
                "financialData: restricted since "))
        await #expect(try session.run(["restrict", "off"]).status == 0)
        let lifted = try await session.run(["finance", "transactions", "--status", "pending"])
        #expect(lifted.status == 0)
        #expect(lifted.lines.count == 1 + 2)  // the update was not imported while restricted
    }

    @Test("a data type this deployment does not provide exits 7")
    func unavailable() async throws {
        let session = try await Session()
        let finance = try await session.run(["finance", "accounts"], extra: ["ORDERS_DATA_TYPES": "orders"])
        #expect(finance.status == 7)
        #expect(finance.stderr.contains("orders: access.dataTypeUnavailable: this deployment does not provide financialData"))
        let archive = TestArchiveTable.directory.appendingPathComponent("valid/basic.order").path
        let orders = try await session.run(
            ["add", "--trust-root", TestArchiveTable.testRoot.path, archive], extra: ["ORDERS_DATA_TYPES": "financialData"])
        #expect(orders.status == 7)
    }

    @Test("orders for a client need an entitlement to the order type")
    func entitlements() async throws {
        let session = try await Session()
        let archive = TestArchiveTable.directory.appendingPathComponent("valid/basic.order").path
        let trust = ["--trust-root", TestArchiveTable.testRoot.path]
        let refused = try await session.run(["add"] + trust + [archive])
        #expect(refused.status == 1)
        #expect(
            refused.stdout.hasPrefix(
                "access.notEntitled \(archive): client com.example.budget is not entitled to orders of type order.com.example.shop"
            ))
        _ = try await session.run(["access", "grant", "--order-type", "order.com.example.shop"])
        await #expect(try session.run(["add"] + trust + [archive]).stdout.hasPrefix("added"))
        let check = ["check", "--type", "order.com.example.shop", "--id", "ORDER-123"]
        await #expect(try session.run(check).stdout == "exists\n")
        await #expect(try session.run(check + ["--client", "com.example.other"]).stdout == "notFound\n")
        // Without a client (no ORDERS_CLIENT), the operator sees every order.
        await #expect(try session.run(check, extra: ["ORDERS_CLIENT": ""]).stdout == "exists\n")
    }

    @Test("a malformed feed is rejected whole, naming the record, and the store is unchanged")
    func malformedFeed() async throws {
        let session = try await Session()
        let feed = session.workspace.folder.appendingPathComponent("bad.json")
        try Data(
            #"{"transactions": [{"id": "00000000-0000-4000-8000-000000000009", "accountID": "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B", "transactionAmount": {"amount": "1.00", "currencyCode": "EUR"}, "creditDebitIndicator": "debit", "transactionDescription": "ok", "transactionType": "fee", "status": "booked", "transactionDate": "2026-11-21T00:00:00Z"}, {"id": "00000000-0000-4000-8000-00000000000A", "accountID": "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B", "transactionAmount": {"amount": "2.00", "currencyCode": "EUR"}, "creditDebitIndicator": "sideways", "transactionDescription": "bad", "transactionType": "fee", "status": "booked", "transactionDate": "2026-11-21T00:00:00Z"}]}"#
                .utf8
        ).write(to: feed)
        let result = try await session.run(["finance", "import", feed.path])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "orders: feed.invalid: transactions[1].creditDebitIndicator: 'sideways' is not one of credit, debit\n")
        await #expect(try session.run(["finance", "transactions"]).lines.count == 1 + 5)
    }

    @Test("finance compact: exit 0 with what it removed (nothing past the retention here); no store is created")
    func compact() async throws {
        let session = try await Session(grant: false)
        let compacted = try await session.run(["finance", "compact"])
        #expect(compacted.status == 0, "\(compacted.stderr)")
        #expect(compacted.stdout == "removed 0 change records older than the retention\n")
        let missing = session.workspace.folder.appendingPathComponent("none.sqlite").path
        let refused = try await session.run(["finance", "compact", "--store", missing])
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("orders: store.unavailable: ") && refused.stderr.contains("there is no store at"))
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
