import Foundation
import TestArchiveTable
import Testing

/// The command-line side of the adversarial findings: output files, unbounded input, clients on
/// every command, store files that are not ours or are damaged, feeds, many files, messages.
@Suite("Hostile files, clients and messages through the real binary")
struct HardeningCommandsTests {
    static let type = TestOrderArchive.orderTypeIdentifier

    /// A workspace holding one stored order, ORDER-1.
    static func storedOrder() async throws -> StoreWorkspace {
        let workspace = try StoreWorkspace()
        let result = try await workspace.run(["add", try workspace.archive("a.order")])
        #expect(result.status == 0, "\(result.stderr)")
        return workspace
    }

    static func fileType(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    // MARK: - Output files (item 5)

    @Test("export and pack never replace a device, FIFO or directory, and say so in one line (exit 2)")
    func outputOverSpecialFiles() async throws {
        let workspace = try await Self.storedOrder()
        let fifo = workspace.folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let directory = workspace.folder.appendingPathComponent("dir").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        var targets = [(fifo, "a FIFO", S_IFIFO), (directory, "a directory", S_IFDIR)]
        // A device node of the test's own (major 1, minor 7: what /dev/full is), never the
        // system's: a regression of this very bug must not replace /dev/null on a CI machine.
        // Creating one needs root; elsewhere the case is left out.
        let device = workspace.folder.appendingPathComponent("full").path
        if mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0 {  // glibc makedev(1, 7)
            targets.append((device, "a character device", S_IFCHR))
        }
        for (target, kind, _) in targets {
            let result = try await workspace.run(["export", "--type", Self.type, "--id", "ORDER-1", "-o", target])
            #expect(result.status == 2, "\(target)")
            #expect(
                result.stderr
                    == "orders: cannot write \(target): it is \(kind), not a regular file (use -o - to write to standard output)\n"
            )
        }
        for (target, _, type) in targets { #expect(Self.fileType(target) == type, "\(target)") }

        let pki = TestArchiveTable.directory.appendingPathComponent("pki").path
        let pack = try await OrdersProcess.run(
            [
                "pack", TestArchiveTable.directory.appendingPathComponent("sources/small").path, "--certificate",
                "\(pki)/order.pem",
                "--key", "\(pki)/order.key", "-o", fifo,
            ], in: workspace.folder)
        #expect(pack.status == 2)
        #expect(pack.stderr.contains("cannot write \(fifo): it is a FIFO"))
        #expect(Self.fileType(fifo) == S_IFIFO)
    }

    @Test("-o - streams the archive byte for byte; a failing write is exit 2; a link to a file is written through")
    func outputStreamsAndLinks() async throws {
        let workspace = try await Self.storedOrder()
        let original = try Data(contentsOf: workspace.folder.appendingPathComponent("a.order"))
        let captured = workspace.folder.appendingPathComponent("stdout.bin")
        #expect(FileManager.default.createFile(atPath: captured.path, contents: nil))
        let capture = try FileHandle(forWritingTo: captured)
        let streamed = try await OrdersProcess.run(
            ["export", "--type", Self.type, "--id", "ORDER-1", "-o", "-", "--store", workspace.store], in: workspace.folder,
            standardOutput: capture)
        try capture.close()
        #expect(streamed.status == 0)
        #expect(try Data(contentsOf: captured) == original)
        #expect(streamed.stderr.hasPrefix("exported"))

        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let failing = try await OrdersProcess.run(
            ["export", "--type", Self.type, "--id", "ORDER-1", "-o", "-", "--store", workspace.store], in: workspace.folder,
            standardOutput: full)
        #expect(failing.status == 2)
        #expect(failing.stderr == "orders: cannot write standard output: No space left on device\n")

        let real = workspace.folder.appendingPathComponent("real.order").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: real))
        let link = workspace.folder.appendingPathComponent("link.order").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        await #expect(try workspace.run(["export", "--type", Self.type, "--id", "ORDER-1", "-o", link]).status == 0)
        #expect(Self.fileType(link) == S_IFLNK)
        #expect(try Data(contentsOf: URL(fileURLWithPath: real)) == original)
    }

    @Test("a full standard output is one line and exit 2, never a crash")
    func fullStandardOutput() async throws {
        let workspace = try await Self.storedOrder()
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let result = try await OrdersProcess.run(
            ["list", "--store", workspace.store], in: workspace.folder, standardOutput: full)
        #expect(result.status == 2)
        #expect(result.stderr == "orders: cannot write standard output: No space left on device\n")
    }

    // MARK: - Unbounded input (item 6)

    @Test("endless input is read only to one byte past the limit: archive.tooLarge and feed.tooLarge")
    func endlessInput() async throws {
        let workspace = try StoreWorkspace()
        let verify = try await OrdersProcess.run(["verify", "/dev/zero"], in: workspace.folder)
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("archive.tooLarge: the archive is larger than the limit of 10485760 bytes"))
        let add = try await workspace.run(["add", "--json", "/dev/zero"])
        #expect(add.status == 1)
        #expect(add.stdout.contains("archive.tooLarge"))
        let feed = try await workspace.run(["finance", "import", "--max-size", "1000000", "/dev/zero"])
        #expect(feed.status == 1)
        #expect(feed.stderr == "orders: feed.tooLarge: the feed is larger than the limit of 1000000 bytes\n")
        // Nothing was stored by the rejected add and import.
        await #expect(try workspace.run(["list"]).stdout.isEmpty)
    }

    @Test("a regular file over the limit is refused with its size, without being read")
    func oversizedFile() async throws {
        let workspace = try StoreWorkspace()
        let big = workspace.folder.appendingPathComponent("big.order")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 100 << 20)  // sparse: 100 MiB that cost nothing to write
        try handle.close()
        let result = try await OrdersProcess.run(["verify", "--json", big.path], in: workspace.folder)
        #expect(result.status == 1)
        #expect(result.stdout.contains(#""message":"the archive is 104857600 bytes; the limit is 10485760 bytes""#))
        #expect(result.stdout.contains(#""archiveSHA256":null"#))
    }

    // MARK: - Clients (item 7)

    @Test(
        "every order command acts for ORDERS_CLIENT or --client: an unentitled client sees nothing and removes nothing",
        arguments: [true, false])
    func clientOnEveryCommand(viaEnvironment: Bool) async throws {
        let workspace = try await Self.storedOrder()
        let environment = viaEnvironment ? ["ORDERS_CLIENT": "com.other"] : [:]
        let client = viaEnvironment ? [] : ["--client", "com.other"]
        let order = ["--type", Self.type, "--id", "ORDER-1"]
        let list = try await workspace.run(["list"] + client, environment: environment)
        #expect(list.status == 0 && list.stdout.isEmpty)
        for command in [["show"], ["history"], ["export", "-o", "out.order"], ["remove"], ["check"]] {
            let result = try await workspace.run(command + order + client, environment: environment)
            #expect(result.status == 1, "\(command)")
        }
        #expect(!FileManager.default.fileExists(atPath: workspace.folder.appendingPathComponent("out.order").path))
        // The operator still has it; once entitled, the client sees it too.
        await #expect(try workspace.run(["list"]).lines.count == 1 + 1)
        await #expect(try workspace.run(["access", "grant", "--client", "com.other", "--order-type", Self.type]).status == 0)
        await #expect(try workspace.run(["list"] + client, environment: environment).lines.count == 1 + 1)
        await #expect(try workspace.run(["show"] + order + client, environment: environment).status == 0)
    }

    // MARK: - Store files (items 8, 9, 12)

    @Test("another application's SQLite file is refused and left exactly as it was, with no companion files")
    func foreignDatabase() async throws {
        let workspace = try StoreWorkspace()
        let foreign = workspace.folder.appendingPathComponent("app.sqlite")
        try await Self.sqlite(
            foreign.path, "CREATE TABLE orders (x); CREATE TABLE players (name); INSERT INTO players VALUES ('ann');")
        let before = try Data(contentsOf: foreign)
        let result = try await OrdersProcess.run(
            ["add", "--store", foreign.path, "--trust-root", TestArchiveTable.testRoot.path, try workspace.archive("a.order")],
            in: workspace.folder)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("is not a wallet-orders store: it is another application's database (tables orders, players)"))
        #expect(try Data(contentsOf: foreign) == before)
        let companions = try FileManager.default.contentsOfDirectory(atPath: workspace.folder.path).filter {
            $0.hasPrefix("app.sqlite")
        }
        #expect(companions == ["app.sqlite"])
    }

    @Test("doctor --compact gives an older store's free pages back, and says how much")
    func compact() async throws {
        let workspace = try StoreWorkspace()
        try FileManager.default.copyItem(
            at: TestArchiveTable.packageRoot.appendingPathComponent("Tests/Fixtures/store-before-storage-layer.sqlite"),
            to: URL(fileURLWithPath: workspace.store))
        let compacted = try await workspace.run(["doctor", "--compact"])
        #expect(compacted.status == 0, "\(compacted.stderr)")
        #expect(compacted.lines.first == "ok    store: \(workspace.store): quick_check found nothing wrong")
        let note = try #require(compacted.lines.last)
        #expect(note.hasPrefix("compacted \(workspace.store): ") && note.hasSuffix(" bytes"), "\(note)")
        await #expect(try workspace.run(["list"]).status == 0)
        let missing = try await StoreWorkspace().run(["doctor", "--compact"])
        #expect(missing.status == 2 && missing.stderr.contains("there is no store"))
    }

    @Test("a damaged store is store.corrupt with what to do; doctor finds it; a sound one is ok")
    func damagedStore() async throws {
        let workspace = try await Self.storedOrder()
        await #expect(
            try workspace.run(["doctor"]).lines.first == "ok    store: \(workspace.store): quick_check found nothing wrong")
        // Overwrite the header of a b-tree page (page 7 holds an index of the access tables).
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: workspace.store))
        try handle.seek(toOffset: 6 * 4096)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 64))
        try handle.close()
        let list = try await workspace.run(["list"])
        #expect(list.status == 2)
        #expect(list.stderr.hasPrefix("orders: store.corrupt: SQLite found damage in \(workspace.store)."))
        #expect(list.stderr.contains("orders doctor") && list.stderr.contains(".recover"))
        let doctor = try await workspace.run(["doctor", "--json"])
        #expect(doctor.status == 1)
        #expect(doctor.stdout.hasPrefix(#"{"checks":[{"check":"store","code":"store.corrupt","#))
        #expect(doctor.stdout.hasSuffix(#""status":"error"}"# + "\n"))
    }

    @Test(
        "reading commands never create a store, a folder or a lock file",
        arguments: [
            ["list"], ["check", "--type", "t", "--id", "i"], ["show", "--type", "t", "--id", "i"],
            ["history", "--type", "t", "--id", "i"],
            ["export", "--type", "t", "--id", "i", "-o", "x.order"], ["remove", "--type", "t", "--id", "i"],
            ["finance", "accounts", "--client", "c"],
            ["access", "status"], ["restrict", "status"], ["doctor"],
        ])
    func readersCreateNothing(_ command: [String]) async throws {
        let workspace = try StoreWorkspace()
        let store = workspace.folder.appendingPathComponent("missing/store.sqlite").path
        let result = try await OrdersProcess.run(command + ["--store", store], in: workspace.folder)
        #expect(result.status == 2)
        #expect(result.stderr == "orders: store.unavailable: there is no store at \(store)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.folder.path).isEmpty)
    }

    // MARK: - Feeds (item 10)

    static let account =
        #"{"id": "6F2A3C8E-1B4D-4E5F-9A7B-0C1D2E3F4A5B", "type": "asset", "displayName": "Everyday", "institutionName": "Bank", "currencyCode": "EUR"}"#

    @Test("a feed with a duplicate key is rejected, naming the record; --json prints the rejection")
    func duplicateKeys() async throws {
        let workspace = try StoreWorkspace()
        let feed = workspace.folder.appendingPathComponent("feed.json")
        try Data(
            #"{"accounts": [\#(Self.account), {"id": "9C8B7A6F-5E4D-4C3B-8A29-1F0E9D8C7B6A", "type": "asset", "type": "liability", "displayName": "x", "institutionName": "y", "currencyCode": "EUR"}]}"#
                .utf8
        ).write(to: feed)
        let result = try await workspace.run(["finance", "import", "--json", feed.path])
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(object["imported"] as? Bool == false)
        #expect(error["code"] as? String == "feed.invalid")
        #expect(error["path"] as? String == "accounts[1]")
        #expect((error["message"] as? String)?.contains(#"duplicate key "type""#) == true)
        #expect(result.stderr.hasPrefix("orders: feed.invalid: accounts[1]: "))
    }

    @Test("unknown keys are warnings, and the feed is imported")
    func unknownKeys() async throws {
        let workspace = try StoreWorkspace()
        let feed = workspace.folder.appendingPathComponent("feed.json")
        let account = Self.account.replacingOccurrences(of: #""type""#, with: #""nickname": "n", "type""#)
        try Data(#"{"accounts": [\#(account)], "version": 2}"#.utf8).write(to: feed)
        let result = try await workspace.run(["finance", "import", feed.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr == "orders: warning: \(feed.path): accounts[0].nickname: unknown key, ignored\n"
                + "orders: warning: \(feed.path): version: unknown key, ignored\n")
    }

    // MARK: - Many files (item 11)

    @Test("--files-from reads paths from a file or stdin, after the operands")
    func filesFrom() async throws {
        let workspace = try StoreWorkspace()
        let a = try workspace.archive("a.order", orderIdentifier: "A")
        let b = try workspace.archive("b.order", orderIdentifier: "B")
        let c = try workspace.archive("c.order", orderIdentifier: "C")
        let list = workspace.folder.appendingPathComponent("list.txt")
        try Data("\(b)\n\n\(c)\n".utf8).write(to: list)
        let verify = try await OrdersProcess.run(
            ["verify", a, "--files-from", list.path, "--trust-root", TestArchiveTable.testRoot.path], in: workspace.folder)
        #expect(verify.status == 0)
        #expect(verify.lines.map { $0.split(separator: " ")[1] } == [a, b, c].map { Substring($0) })
        let add = try await OrdersProcess.run(
            ["add", "--yes", "--files-from", "-", "--store", workspace.store, "--trust-root", TestArchiveTable.testRoot.path],
            stdinText: "\(a)\n\(c)\n", in: workspace.folder)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.lines == ["added          \(a)", "added          \(c)"])
        let missing = try await OrdersProcess.run(["verify", "--files-from", "nothing.txt"], in: workspace.folder)
        #expect(missing.status == 2)
        #expect(missing.stderr == "orders: cannot read the file list nothing.txt: No such file or directory\n")
    }

    @Test(
        "options and operands mix freely, and -- ends the options",
        arguments: [
            ["verify", "--json", "A", "--trust-root", "ROOT", "B"], ["verify", "--trust-root=ROOT", "A", "--", "B"],
            ["add", "A", "--yes", "--trust-root", "ROOT", "B"],
        ])
    func operandsAndOptions(_ template: [String]) async throws {
        let workspace = try StoreWorkspace()
        let a = try workspace.archive("a.order", orderIdentifier: "A")
        let b = try workspace.archive("b.order", orderIdentifier: "B")
        let arguments = template.map { $0 == "A" ? a : $0 == "B" ? b : $0 == "ROOT" ? TestArchiveTable.testRoot.path : $0 }
            .map { $0 == "--trust-root=ROOT" ? "--trust-root=\(TestArchiveTable.testRoot.path)" : $0 }
        let result = try await OrdersProcess.run(
            arguments + (template[0] == "add" ? ["--store", workspace.store] : []), in: workspace.folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count == 2)
    }

    /// FileOperands must know every option of verify and add that takes a value: compare with
    /// what the parser itself documents.
    @Test("the operand splitter knows exactly the options that take a value", arguments: ["verify", "add"])
    func valueOptionsMatchHelp(_ command: String) async throws {
        let help = try await OrdersProcess.run([command, "--help"]).stdout
        var options: Set<String> = []
        for line in help.split(separator: "\n") {
            let words = line.split(separator: " ")
            for (index, word) in words.enumerated() where word.hasPrefix("--") && index + 1 < words.count {
                let next = words[index + 1]
                if next.hasPrefix("<") { options.insert(String(word.trimmingCharacters(in: CharacterSet(charactersIn: ",")))) }
            }
        }
        let expected: [String: Set<String>] = [
            "verify": ["--trust-root", "--at", "--files-from"],
            "add": ["--trust-root", "--client", "--store", "--database", "--files-from"],
        ]
        #expect(options == expected[command])
    }

    // MARK: - Messages (item 12)

    @Test("a negative --limit is named as such; exporting to a folder says it is a folder")
    func messages() async throws {
        let workspace = try await Self.storedOrder()
        let limit = try await workspace.run(["list", "--limit", "-1"])
        #expect(limit.status == 2)
        #expect(limit.stderr.hasPrefix("Error: --limit needs a count of 0 or more, not -1."))
        let folder = try await workspace.run(["export", "--type", Self.type, "--id", "ORDER-1", "-o", workspace.folder.path])
        #expect(folder.status == 2)
        #expect(folder.stderr.contains("it is a directory") && !folder.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test("a 100 KB identifier or value is never echoed whole")
    func hugeInputs() async throws {
        let workspace = try await Self.storedOrder()
        let huge = String(repeating: "X", count: 100_000)
        for command in [
            ["show", "--type", Self.type, "--id", huge], ["export", "--type", huge, "--id", huge, "-o", "x.order"],
            ["check", "--type", Self.type, "--id", "a", "--updated-date", huge], ["list", "--limit", huge],
            ["finance", "accounts", "--client", huge],
        ] {
            let result = try await workspace.run(command)
            #expect(result.status != 0)
            #expect(result.stderr.utf8.count < 2_000, "\(command[0]): \(result.stderr.utf8.count) bytes")
            #expect(
                result.stderr.contains("(100000 characters)") || result.stderr.contains("is not in the store"), "\(command[0])")
        }
    }

    @Test("on a terminal, control characters from an order are shown escaped; piped output stays exact but in tables")
    func terminalEscapes() async throws {
        let workspace = try StoreWorkspace()
        let url = workspace.folder.appendingPathComponent("e.order")
        try TestOrderArchive.make(edit: { order in
            var merchant = order["merchant"] as? [String: Any] ?? [:]
            merchant["displayName"] = "Shop\u{1B}]0;pwned\u{07}\u{1B}[2J"
            order["merchant"] = merchant
        }).write(to: url)
        await #expect(try workspace.run(["add", url.path]).status == 0)
        let piped = try await workspace.run(["show", "--type", TestOrderArchive.orderTypeIdentifier, "--id", "ORDER-1"])
        #expect(piped.stdout.contains("Shop\u{1B}]0;pwned\u{07}\u{1B}[2J"))
        // A table cell is one line everywhere.
        await #expect(try workspace.run(["list"]).stdout.contains(#"Shop\u{1B}]0;pwned\u{7}\u{1B}[2J"#))
        let command = "\(OrdersProcess.binary.path) list --store \(workspace.store)"
        let terminal = try await OrdersProcess.run(
            executable: URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"], in: workspace.folder)
        #expect(terminal.stdout.contains(#"Shop\u{1B}]0;pwned\u{7}\u{1B}[2J"#))
        #expect(!terminal.stdout.contains("\u{1B}"))
    }

    /// Runs SQL with Python's sqlite3 (another application's database, made by another program).
    static func sqlite(_ path: String, _ sql: String) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()",
            path, sql,
        ]
        try process.run()
        await process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
