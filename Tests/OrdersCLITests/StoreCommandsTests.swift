import Foundation
import OrderPackage
import TestArchiveTable
import Testing

/// A temporary folder with a store path and signed archives written as files.
struct StoreWorkspace {
    let folder: URL
    var store: String { folder.appendingPathComponent("orders.sqlite").path }

    init() throws {
        folder = try TemporaryDirectory.make("orders-cli")
    }

    /// Writes a version of an order and returns its path.
    func archive(
        _ name: String, orderIdentifier: String = "ORDER-1", updatedAt: String = "2026-01-15T09:30:00Z", status: String = "open",
        signer: String = "order"
    ) throws -> String {
        let url = folder.appendingPathComponent(name)
        try TestOrderArchive.make(orderIdentifier: orderIdentifier, updatedAt: updatedAt, status: status, signer: signer).write(
            to: url)
        return url.path
    }

    /// The bytes the store's database holds: the file with its `-wal` and `-shm`, where a
    /// commit lives until a checkpoint. A test that searches them for a secret also finds
    /// something the store does keep, so that the search is shown to see.
    func storeBytes() -> Data {
        ["", "-wal", "-shm"].reduce(into: Data()) { bytes, suffix in
            bytes += (try? Data(contentsOf: URL(fileURLWithPath: store + suffix))) ?? Data()
        }
    }

    func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]
    ) async throws -> OrdersProcess.Result {
        let commandsWithTrust: Set<String> = ["add", "verify"]
        var full = arguments + ["--store", store]
        if let first = arguments.first, commandsWithTrust.contains(first) {
            full += ["--trust-root", TestArchiveTable.testRoot.path]
        }
        return try await OrdersProcess.run(full, environment: environment, stdinText: stdin, in: folder)
    }
}

@Suite("orders add, check, list, show, history, export, remove")
struct StoreCommandsTests {
    @Test("add: one line per file and exit 0 when everything is added; re-adding the same bytes is idempotent")
    func addAll() async throws {
        let workspace = try StoreWorkspace()
        let a = try workspace.archive("a.order", orderIdentifier: "A")
        let b = try workspace.archive("b.order", orderIdentifier: "B")
        let result = try await workspace.run(["add", a, b])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == ["added          \(a)", "added          \(b)"])
        #expect(result.stderr == "2 files: 2 added, 0 newerExisting, 0 cancelled, 0 failed\n")
        let again = try await workspace.run(["add", a])
        #expect(again.status == 0)
        #expect(again.lines == ["added          \(a)"])
        await #expect(
            try workspace.run(["history", "--type", TestOrderArchive.orderTypeIdentifier, "--id", "A"]).lines.count == 1 + 1)
    }

    @Test("add: exit 3 for newerExisting, 1 for invalid or rejected, 2 for unreadable, in that precedence")
    func addExitStatuses() async throws {
        let workspace = try StoreWorkspace()
        let newer = try workspace.archive("newer.order", updatedAt: "2026-01-16T00:00:00Z")
        let older = try workspace.archive("older.order", updatedAt: "2026-01-15T00:00:00Z")
        await #expect(try workspace.run(["add", newer]).status == 0)
        let stale = try await workspace.run(["add", older])
        #expect(stale.status == 3)
        #expect(stale.lines == ["newerExisting  \(older)"])

        let conflicting = try workspace.archive("conflict.order", updatedAt: "2026-01-16T00:00:00Z", status: "completed")
        let rejected = try await workspace.run(["add", older, conflicting])
        #expect(rejected.status == 1)
        #expect(
            rejected.lines[1].hasPrefix(
                "store.conflictingVersion \(conflicting): order.com.example.shop/ORDER-1 is already stored"))

        let takeover = try workspace.archive("takeover.order", updatedAt: "2026-01-17T00:00:00Z", signer: "other-team")
        let signer = try await workspace.run(["add", takeover])
        #expect(signer.status == 1)
        #expect(
            signer.lines == [
                "store.signerChanged \(takeover): order.com.example.shop/ORDER-1 is stored signed by team ABCDE12345; an update signed by team ZYXWV98765 is refused"
            ])

        let unreadable = try await workspace.run(["add", older, conflicting, "missing.order"])
        #expect(unreadable.status == 2)
        #expect(unreadable.lines.last == "unreadable     missing.order: No such file or directory")
        #expect(unreadable.stderr == "3 files: 0 added, 1 newerExisting, 0 cancelled, 1 failed, 1 unreadable\n")
    }

    @Test("add: saves overlap, yet versions of one order are stored in argument order and lines come in argument order")
    func addManyInOrder() async throws {
        let workspace = try StoreWorkspace()
        try await Self.addsManyInOrder(in: workspace, backend: ["--store", workspace.store])
    }

    /// Three orders, six versions each, interleaved in one `orders add`: every version newer than
    /// the one before it, so each is added only if saved after it; a fourth order's versions come
    /// newest first. On PostgreSQL (PostgresProcessesTests) the overlapping saves run on
    /// different connections, where a save started out of turn would be seen.
    static func addsManyInOrder(in workspace: StoreWorkspace, backend: [String]) async throws {
        var files: [String] = []
        var expected: [String] = []
        for version in 0..<6 {
            for order in ["A", "B", "C"] {
                let file = try workspace.archive(
                    "\(order)-\(version).order", orderIdentifier: order, updatedAt: "2026-01-15T09:30:0\(version)Z")
                files.append(file)
                expected.append("added          \(file)")
            }
            let file = try workspace.archive(
                "D-\(version).order", orderIdentifier: "D", updatedAt: "2026-01-15T09:30:0\(5 - version)Z")
            files.append(file)
            expected.append((version == 0 ? "added          " : "newerExisting  ") + file)
        }
        let trust = ["--trust-root", TestArchiveTable.testRoot.path]
        let result = try await OrdersProcess.run(["add", "--yes"] + backend + trust + files, in: workspace.folder)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.lines == expected)
        for order in ["A", "B", "C"] {
            let history = try await OrdersProcess.run(
                ["history", "--type", TestOrderArchive.orderTypeIdentifier, "--id", order] + backend, in: workspace.folder)
            #expect(history.lines.count == 1 + 6)
        }
    }

    @Test("add: an invalid archive names its codes and leaves the store untouched")
    func addInvalid() async throws {
        let workspace = try StoreWorkspace()
        let invalid = TestArchiveTable.directory.appendingPathComponent("invalid/order-invalid-values.order").path
        let result = try await workspace.run([
            "add", invalid, TestArchiveTable.directory.appendingPathComponent("invalid/empty.order").path,
        ])
        #expect(result.status == 1)
        #expect(result.lines[0].hasPrefix("order.invalidValue \(invalid): status: 'shipped' is not one of"))
        #expect(result.lines[0].hasSuffix("(+5 more; `orders verify` lists them)"))
        #expect(result.lines[1].hasPrefix("archive.notZip "))
        await #expect(try workspace.run(["list"]).stdout.isEmpty)
    }

    @Test("add --confirm: declined orders are cancelled (exit 4), accepted ones added")
    func addWithConsent() async throws {
        let workspace = try StoreWorkspace()
        let a = try workspace.archive("a.order", orderIdentifier: "A")
        let b = try workspace.archive("b.order", orderIdentifier: "B")
        let result = try await OrdersProcess.run(
            ["add", "--confirm", "--store", workspace.store, "--trust-root", TestArchiveTable.testRoot.path, a, b],
            stdinText: "n\ny\n", in: workspace.folder)
        #expect(result.status == 4)
        #expect(result.lines == ["cancelled      \(a)", "added          \(b)"])
        #expect(result.stderr.contains("Example Shop — order 123-456-789"))
        #expect(result.stderr.contains("total 49.00 EUR"))
        #expect(result.stderr.components(separatedBy: "Add this order? [y/N] ").count == 3)
        await #expect(
            try workspace.run(["check", "--type", TestOrderArchive.orderTypeIdentifier, "--id", "A"]).stdout == "notFound\n")
    }

    @Test("add on a terminal asks; --yes does not")
    func addOnTerminal() async throws {
        let workspace = try StoreWorkspace()
        let a = try workspace.archive("a.order", orderIdentifier: "A")
        let command = [
            OrdersProcess.binary.path, "add", "--store", workspace.store, "--trust-root", TestArchiveTable.testRoot.path, a,
        ]
        .map { "'\($0)'" }.joined(separator: " ")
        // `script` runs the command on a pseudo-terminal, so stdin is a terminal.
        let declined = try await OrdersProcess.run(
            executable: URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"], stdinText: "n\n",
            in: workspace.folder)
        #expect(declined.stdout.contains("Add this order? [y/N]"))
        #expect(declined.stdout.contains("cancelled      \(a)"))
        #expect(declined.status == 4)
        let forced = try await OrdersProcess.run(
            executable: URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command + " --yes", "/dev/null"], in: workspace.folder)
        #expect(!forced.stdout.contains("Add this order?"))
        #expect(forced.stdout.contains("added          \(a)"))
    }

    @Test("add draws a progress bar when stderr is a terminal, and clears it before each result")
    func progress() async throws {
        let workspace = try StoreWorkspace()
        let files = try (0..<3).map { try workspace.archive("p\($0).order", orderIdentifier: "P\($0)") }
        let command =
            ([
                OrdersProcess.binary.path, "add", "--yes", "--store", workspace.store, "--trust-root",
                TestArchiveTable.testRoot.path,
            ] + files)
            .map { "'\($0)'" }.joined(separator: " ")
        let result = try await OrdersProcess.run(
            executable: URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"], in: workspace.folder)
        #expect(result.stdout.contains("\r[##########                    ] 1/3 "))
        #expect(result.stdout.contains("\r\u{1B}[Kadded          \(files[1])"))
        #expect(result.stdout.contains("3 files: 3 added, 0 newerExisting, 0 cancelled, 0 failed"))
        // Not a terminal: no bar at all.
        await #expect(!(try workspace.run(["add"] + files)).stderr.contains("["))
    }

    @Test("add --json: one object per file")
    func addJSON() async throws {
        let workspace = try StoreWorkspace()
        let a = try workspace.archive("a.order", orderIdentifier: "A", updatedAt: "2026-01-15T09:30:00.5Z")
        let result = try await workspace.run(["add", "--json", a, "nope.order"])
        #expect(
            result.lines == [
                #"{"code":null,"errors":[],"file":"\#(a)","message":null,"orderIdentifier":"A","orderTypeIdentifier":"order.com.example.shop","result":"added","updatedAt":"2026-01-15T09:30:00.5Z"}"#,
                #"{"code":"io.unreadable","errors":[],"file":"nope.order","message":"No such file or directory","orderIdentifier":null,"orderTypeIdentifier":null,"result":"error","updatedAt":null}"#,
            ])
    }

    @Test("check: exists, newerExists, olderExists, notFound, with exit 0 when found and 1 when not")
    func check() async throws {
        let workspace = try StoreWorkspace()
        _ = try await workspace.run(["add", try workspace.archive("a.order", updatedAt: "2026-01-15T09:30:00.125Z")])
        let id = ["--type", TestOrderArchive.orderTypeIdentifier, "--id", "ORDER-1"]
        for (date, expected) in [
            (nil, "exists"), ("2026-01-15T10:30:00.125+01:00", "exists"), ("2026-01-15T09:30:00.124999Z", "newerExists"),
            ("2026-01-15T09:30:00.125001Z", "olderExists"),
        ] as [(String?, String)] {
            let result = try await workspace.run(["check"] + id + (date.map { ["--updated-date", $0] } ?? []))
            #expect(result.stdout == expected + "\n", "\(date ?? "no date")")
            #expect(result.status == 0)
        }
        let missing = try await workspace.run(["check", "--type", TestOrderArchive.orderTypeIdentifier, "--id", "NOPE"])
        #expect(missing.stdout == "notFound\n")
        #expect(missing.status == 1)
        let json = try await workspace.run(["check", "--json"] + id)
        #expect(
            json.stdout
                == #"{"orderIdentifier":"ORDER-1","orderTypeIdentifier":"order.com.example.shop","removed":null,"result":"exists"}"#
                + "\n")
        let bad = try await workspace.run(["check", "--updated-date", "yesterday"] + id)
        #expect(bad.status == 2)
    }

    @Test("list, show, history, export and remove")
    func inspection() async throws {
        let workspace = try StoreWorkspace()
        let v1 = try workspace.archive("v1.order", updatedAt: "2026-01-15T00:00:00Z")
        let v2 = try workspace.archive("v2.order", updatedAt: "2026-01-16T00:00:00Z", status: "completed")
        let other = try workspace.archive("other.order", orderIdentifier: "ORDER-2", updatedAt: "2026-01-14T00:00:00Z")
        await #expect(try workspace.run(["add", v1, v2, other]).status == 0)
        let id = ["--type", TestOrderArchive.orderTypeIdentifier, "--id", "ORDER-1"]

        let list = try await workspace.run(["list"])
        #expect(
            list.lines.map { $0.components(separatedBy: "  ").first } == [
                "UPDATED", "2026-01-16T00:00:00Z", "2026-01-14T00:00:00Z",
            ])
        await #expect(try workspace.run(["list", "--status", "open"]).lines.count == 1 + 1)
        await #expect(try workspace.run(["list", "--since", "2026-01-15T00:00:00Z"]).lines.count == 1 + 1)
        await #expect(
            try workspace.run(["list", "--limit", "1", "--offset", "1"]).lines.dropFirst().first?.contains("ORDER-2") == true)
        let listJSON = try await workspace.run(["list", "--json"])
        #expect(listJSON.lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] })
        await #expect(try workspace.run(["list", "--status", "lost"]).status == 2)
        let search = try await workspace.run(["list", "--search", "order-2", "--json"])
        #expect(search.lines.count == 1 && search.lines.first?.contains(#""orderIdentifier":"ORDER-2""#) == true)
        let none = try await workspace.run(["list", "--search", "no such order", "--json"])
        #expect(none.status == 0 && none.lines.isEmpty)

        let show = try await workspace.run(["show"] + id)
        #expect(show.status == 0)
        #expect(show.lines.first == "order.com.example.shop/ORDER-1  (order 123-456-789)")
        #expect(show.stdout.contains("  status       completed"))
        #expect(show.stdout.contains("  payment      49.00 EUR (paid)"))
        #expect(show.stdout.contains("  fulfillments shipping SHIP-1 onTheWay (DHL JD014600003828)"))
        #expect(show.stdout.contains("  versions     2 "))
        let showJSON = try await #require(
            try JSONSerialization.jsonObject(with: Data(try workspace.run(["show", "--json"] + id).stdout.utf8)) as? [String: Any]
        )
        #expect((showJSON["versions"] as? [Any])?.count == 2)
        #expect(((showJSON["order"] as? [String: Any])?["payment"] as? [String: Any]) != nil)

        let history = try await workspace.run(["history"] + id)
        #expect(history.lines.count == 1 + 2)
        #expect(history.lines[0].hasPrefix("UPDATED               STATUS     ADDED"))
        #expect(history.lines[1].hasPrefix("2026-01-15T00:00:00Z  open"))
        #expect(!history.lines[1].contains("current"))
        #expect(history.lines[2].contains("current"))

        let exported = workspace.folder.appendingPathComponent("exported.order").path
        await #expect(try workspace.run(["export"] + id + ["-o", exported]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: exported)) == Data(contentsOf: URL(fileURLWithPath: v2)))

        await #expect(try workspace.run(["remove"] + id).stdout == "removed order.com.example.shop/ORDER-1\n")
        let gone = try await workspace.run(["remove"] + id)
        #expect(gone.status == 1)
        #expect(gone.stderr == "orders: order.com.example.shop/ORDER-1 is not in the store\n")
        for command in ["show", "history", "export"] {
            let result = try await workspace.run([command] + id + (command == "export" ? ["-o", exported] : []))
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr == "orders: order.com.example.shop/ORDER-1 is not in the store\n")
        }
    }

    @Test("the store lives at --store, else ORDERS_STORE, else $XDG_DATA_HOME/orders, else ~/.local/share/orders")
    func location() async throws {
        let workspace = try StoreWorkspace()
        let archive = try workspace.archive("a.order")
        let home = workspace.folder.appendingPathComponent("home")
        let trust = ["--trust-root", TestArchiveTable.testRoot.path]
        #expect(
            try await OrdersProcess.run(
                ["add"] + trust + [archive], environment: ["HOME": home.path, "XDG_DATA_HOME": ""], in: workspace.folder
            ).status == 0)
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/share/orders/orders.sqlite").path))
        let xdg = workspace.folder.appendingPathComponent("xdg")
        #expect(
            try await OrdersProcess.run(
                ["add"] + trust + [archive], environment: ["HOME": home.path, "XDG_DATA_HOME": xdg.path], in: workspace.folder
            ).status == 0)
        #expect(FileManager.default.fileExists(atPath: xdg.appendingPathComponent("orders/orders.sqlite").path))
        let explicit = workspace.folder.appendingPathComponent("env.sqlite")
        #expect(
            try await OrdersProcess.run(
                ["add"] + trust + [archive], environment: ["ORDERS_STORE": explicit.path], in: workspace.folder
            )
            .status == 0)
        #expect(FileManager.default.fileExists(atPath: explicit.path))
    }

    @Test("an unusable store is one line on stderr and exit 2")
    func unusableStore() async throws {
        let workspace = try StoreWorkspace()
        let garbage = workspace.folder.appendingPathComponent("garbage.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: garbage)
        let result = try await OrdersProcess.run(["list", "--store", garbage.path], in: workspace.folder)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "orders: store.unavailable: \(garbage.path) is not a wallet-orders store: it is not an SQLite database. "
                + "Nothing was changed; use a new file's path\n")
        #expect(try Data(contentsOf: garbage) == Data(repeating: 0x41, count: 4096))
    }
}
