import Foundation
import TestArchiveTable
import Testing
import WalletPrimitives

/// `orders author` (issue 43, item 3): versions authored from order.json and merge patches,
/// signed with the type's identity, verified by `orders verify` and `openssl cms -verify`.
@Suite("orders author")
struct AuthorCommandTests {
    static let type = "order.com.example.shop"
    static let sources = TestArchiveTable.directory.appendingPathComponent("sources/small")

    static func pki(_ name: String) -> String {
        TestArchiveTable.directory.appendingPathComponent("pki/\(name)").path
    }

    /// A store with the test PKI's identity for the type.
    static func workspace() async throws -> StoreWorkspace {
        let workspace = try StoreWorkspace()
        let added = try await workspace.run([
            "signing", "add", "--order-type", type, "--certificate", pki("order.pem"), "--key", pki("order.key"),
            "--intermediate", pki("wwdr.pem"), "--trust-root", TestArchiveTable.testRoot.path,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        return workspace
    }

    /// The web service URL the shipped sources name: the public URL of the service in these tests.
    static let publicURL = "https://shop.example.com/wallet/"

    static func author(
        _ workspace: StoreWorkspace, _ arguments: [String], json: Bool = true
    ) async throws -> OrdersProcess.Result {
        let url = arguments.contains("--public-url") ? [] : ["--public-url", publicURL]
        return try await workspace.run(
            ["author", "--type", type] + arguments + url + ["--trust-root", TestArchiveTable.testRoot.path]
                + (json ? ["--json"] : []))
    }

    static func answer(_ result: OrdersProcess.Result) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// The current version's order.json, through `orders export`.
    static func exported(_ workspace: StoreWorkspace, id: String) async throws -> (archive: String, order: [String: Any]) {
        let archive = workspace.folder.appendingPathComponent("\(id)-\(UUID().uuidString).order").path
        let exported = try await workspace.run(["export", "--type", type, "--id", id, "--output", archive])
        #expect(exported.status == 0, "\(exported.stderr)")
        let verified = try await OrdersProcess.run(
            ["verify", "--trust-root", TestArchiveTable.testRoot.path, archive], in: workspace.folder)
        #expect(verified.status == 0, "orders verify accepts what the service authored: \(verified.stdout)\(verified.stderr)")
        let orderJSON = try runData("/usr/bin/unzip", ["-p", archive, "order.json"])
        return (archive, try #require(JSONSerialization.jsonObject(with: orderJSON) as? [String: Any]))
    }

    @Test("order.json with its images, then two patches: each version signed, verified, later than the last; service fields kept")
    func putThenPatches() async throws {
        let workspace = try await Self.workspace()
        let first = try await Self.author(
            workspace,
            ["--id", "ORDER-123", Self.sources.appendingPathComponent("order.json").path, "--resources", Self.sources.path])
        #expect(first.status == 0, "\(first.stderr)")
        let firstAnswer = try Self.answer(first)
        #expect(firstAnswer["firstVersion"] as? Bool == true && firstAnswer["result"] as? String == "added")
        let details = try #require(firstAnswer["orderDetails"] as? [String: Any])
        #expect(details["orderTypeIdentifier"] as? String == Self.type && details["orderIdentifier"] as? String == "ORDER-123")
        #expect(details["authenticationToken"] as? String == "8c4fbd8e3a9d4f2e9b7a1c2d3e4f5a6b", "the merchant's token is kept")
        #expect(details["webServiceURL"] as? String == "https://shop.example.com/wallet/")
        let (firstArchive, firstOrder) = try await Self.exported(workspace, id: "ORDER-123")
        #expect(firstOrder["createdAt"] as? String == "2026-01-15T09:30:00Z")
        try Self.checkSignature(of: firstArchive, in: workspace.folder)

        let patchFile = workspace.folder.appendingPathComponent("patch.json")
        try Data(#"{"status":"completed","orderNumber":null}"#.utf8).write(to: patchFile)
        var previous = try #require(firstAnswer["updatedAt"] as? String)
        #expect(previous.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "three fractional digits: \(previous)")
        for _ in 0..<2 {
            let patched = try await Self.author(workspace, ["--id", "ORDER-123", "--patch", patchFile.path])
            #expect(patched.status == 0, "\(patched.stderr)")
            let answer = try Self.answer(patched)
            let updatedAt = try #require(answer["updatedAt"] as? String)
            #expect(answer["firstVersion"] as? Bool == false)
            #expect(
                try #require(RFC3339Timestamp(updatedAt)) > #require(RFC3339Timestamp(previous)),
                "\(updatedAt) after \(previous)")
            previous = updatedAt
            let (archive, order) = try await Self.exported(workspace, id: "ORDER-123")
            #expect(order["status"] as? String == "completed" && order["orderNumber"] == nil)
            #expect(order["createdAt"] as? String == "2026-01-15T09:30:00Z")
            #expect(order["authenticationToken"] as? String == "8c4fbd8e3a9d4f2e9b7a1c2d3e4f5a6b")
            #expect(order["updatedAt"] as? String == updatedAt)
            #expect(try Self.entries(archive).contains("item.png"), "the images are carried over")
        }
        #expect(try Self.entries(firstArchive).contains("logo.png"))
        let history = try await workspace.run(["history", "--type", Self.type, "--id", "ORDER-123", "--json"])
        #expect(history.lines.count == 3, "\(history.stdout)")
    }

    /// The detached signature as `openssl cms` reads it: it verifies over manifest.json to the test
    /// root; SHA-256; signed attributes with the signing time and the manifest's digest; the
    /// Order Type ID certificate and the WWDR intermediate included.
    static func checkSignature(of archive: String, in folder: URL) throws {
        let signature = folder.appendingPathComponent("signature.der").path
        let manifest = folder.appendingPathComponent("manifest.json").path
        try runData("/usr/bin/unzip", ["-p", archive, "signature"]).write(to: URL(fileURLWithPath: signature))
        try runData("/usr/bin/unzip", ["-p", archive, "manifest.json"]).write(to: URL(fileURLWithPath: manifest))
        _ = try run(
            "/usr/bin/openssl",
            [
                "cms", "-verify", "-binary", "-inform", "DER", "-in", signature, "-content", manifest, "-CAfile", pki("root.pem"),
                "-purpose", "any", "-out", "/dev/null",
            ])
        let printed = try run("/usr/bin/openssl", ["cms", "-cmsout", "-print", "-inform", "DER", "-in", signature])
        #expect(printed.contains("algorithm: sha256"), "digest algorithm")
        #expect(printed.contains("object: signingTime"), "signing time")
        #expect(printed.contains("object: messageDigest") && printed.contains("object: contentType"))
        #expect(printed.contains("eContent: <ABSENT>"), "detached")
        #expect(printed.components(separatedBy: "subject: ").count - 1 == 2, "the leaf and the WWDR intermediate")
        #expect(printed.contains("Wallet Orders Test WWDR CA"))
    }

    /// A tool's standard output as text; a non-zero exit fails.
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        String(decoding: try runData(tool, arguments), as: UTF8.self)
    }

    /// A tool's standard output; a non-zero exit fails.
    static func runData(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) \(arguments.joined(separator: " "))")
        return bytes
    }

    /// The entry names of an archive, through `unzip -Z1`.
    static func entries(_ archive: String) throws -> [String] {
        try run("/usr/bin/unzip", ["-Z1", archive]).split(separator: "\n").map(String.init)
    }

    @Test("a first version from bare JSON gets a token of 32 characters and the public URL")
    func serviceFields() async throws {
        let workspace = try await Self.workspace()
        var order = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: Self.sources.appendingPathComponent("order.json")))
                as? [String: Any])
        for key in ["authenticationToken", "webServiceURL", "createdAt", "updatedAt", "orderIdentifier"] { order[key] = nil }
        let file = workspace.folder.appendingPathComponent("order.json")
        try JSONSerialization.data(withJSONObject: order).write(to: file)
        let result = try await Self.author(
            workspace,
            ["--id", "ORDER-9", file.path, "--resources", Self.sources.path, "--public-url", "https://wallet.example.com/"])
        #expect(result.status == 0, "\(result.stderr)")
        let details = try #require(try Self.answer(result)["orderDetails"] as? [String: Any])
        #expect((details["authenticationToken"] as? String)?.utf8.count == 32)
        #expect(details["webServiceURL"] as? String == "https://wallet.example.com/")
        #expect(details["orderIdentifier"] as? String == "ORDER-9")
    }

    @Test(
        "refusals: exit 1 with the code, nothing stored",
        arguments: [
            (#"{"status":"completed"}"#, true, "authoring.orderNotFound"),
            (#"{"status":"nonsense"}"#, false, "store.invalidArchive: schemaVersion: "),
            (#"{"orderIdentifier":"OTHER"}"#, false, "authoring.identifierMismatch"),
            (#"not json"#, false, "authoring.invalidContent"),
        ])
    func refused(_ body: String, _ asPatch: Bool, _ code: String) async throws {
        let workspace = try await Self.workspace()
        let file = workspace.folder.appendingPathComponent("body.json")
        try Data(body.utf8).write(to: file)
        let arguments =
            ["--id", "ORDER-1"] + (asPatch ? ["--patch", file.path] : [file.path, "--resources", Self.sources.path])
        let result = try await Self.author(workspace, arguments, json: false)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("orders: \(code)"), "\(result.stderr)")
        let json = try await Self.author(workspace, arguments)
        #expect(json.status == 1 && json.stderr.isEmpty, "\(json.stderr)")
        let error = try #require(try Self.answer(json)["error"] as? [String: Any], "the API's error document: \(json.stdout)")
        #expect(code.hasPrefix(error["code"] as? String ?? "-"), "\(json.stdout)")
        let listed = try await workspace.run(["list", "--json"])
        #expect(listed.stdout.isEmpty, "\(listed.stdout)")
    }

    @Test(
        "an invalid order.json: each finding on its own line at its path, as orders verify prints them; --json as the API answers (issue 52, item 8)"
    )
    func findingsAtTheirPaths() async throws {
        let workspace = try await Self.workspace()
        let file = workspace.folder.appendingPathComponent("order.json")
        try Data(#"{"status":"nonsense","merchant":{"displayName":7}}"#.utf8).write(to: file)
        let human = try await Self.author(workspace, ["--id", "ORDER-1", file.path], json: false)
        #expect(human.status == 1)
        let lines = human.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("orders: store.invalidArchive: ") == true, "\(human.stderr)")
        #expect(lines.contains("    order.missingKey at schemaVersion: a required key is missing"), "\(human.stderr)")
        #expect(lines.contains { $0.hasPrefix("    order.invalidValue at status: ") }, "\(human.stderr)")
        #expect(lines.contains { $0.hasPrefix("    order.") && $0.contains(" at merchant.displayName: ") }, "\(human.stderr)")

        let json = try await Self.author(workspace, ["--id", "ORDER-1", file.path])
        #expect(json.status == 1)
        let document = try Self.answer(json)
        #expect((document["error"] as? [String: Any])?["code"] as? String == "store.invalidArchive")
        let errors = try #require((document["report"] as? [String: Any])?["errors"] as? [[String: Any]])
        let paths = Set(errors.compactMap { $0["path"] as? String })
        #expect(paths.isSuperset(of: ["schemaVersion", "status", "merchant.displayName"]), "\(paths)")
    }

    @Test("--json answers with the customer page's signed path, as the merchant API does")
    func customerPage() async throws {
        let workspace = try await Self.workspace()
        let result = try await Self.author(
            workspace,
            ["--id", "ORDER-123", Self.sources.appendingPathComponent("order.json").path, "--resources", Self.sources.path])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try #require(try Self.answer(result)["customerPage"] as? String)
        #expect(page.hasPrefix("/orders/order.com.example.shop/ORDER-123?expires="), "\(page)")
        let link = try await workspace.run(["link", "--type", Self.type, "--id", "ORDER-123"])
        #expect(link.status == 0 && link.stdout.hasPrefix("/orders/order.com.example.shop/ORDER-123?expires="))
    }

    @Test("a webServiceURL that is not the public URL is refused, unless --allow-web-service-url names it (issue 52, item 1)")
    func webServiceURL() async throws {
        let workspace = try await Self.workspace()
        let order = [
            "--id", "ORDER-123", Self.sources.appendingPathComponent("order.json").path, "--resources", Self.sources.path,
        ]
        let refused = try await Self.author(workspace, order + ["--public-url", "https://wallet.example.com/"], json: false)
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("orders: authoring.webServiceURLNotAllowed: webServiceURL: "), "\(refused.stderr)")
        let allowed = try await Self.author(
            workspace,
            order + [
                "--public-url", "https://wallet.example.com/", "--allow-web-service-url", "\(Self.type)=\(Self.publicURL)",
            ])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let usage = try await Self.author(workspace, order + ["--allow-web-service-url", "\(Self.type)=http://x.example/"])
        #expect(usage.status == 2 && usage.stderr.contains("--allow-web-service-url"), "\(usage.stderr)")
    }

    @Test(
        "without --public-url a version with no allowed webServiceURL is refused: exit 7, authoring.publicURLRequired (issue 53, item 6)"
    )
    func publicURLRequired() async throws {
        let workspace = try await Self.workspace()
        var order = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: Self.sources.appendingPathComponent("order.json")))
                as? [String: Any])
        order["webServiceURL"] = nil
        let file = workspace.folder.appendingPathComponent("order.json")
        try JSONSerialization.data(withJSONObject: order).write(to: file)
        let refused = try await workspace.run([
            "author", "--type", Self.type, "--id", "ORDER-123", file.path, "--resources", Self.sources.path,
            "--trust-root", TestArchiveTable.testRoot.path,
        ])
        #expect(refused.status == 7, "\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("orders: authoring.publicURLRequired: webServiceURL: "), "\(refused.stderr)")
        let history = try await workspace.run(["history", "--type", Self.type, "--id", "ORDER-123"])
        #expect(history.status == 1, "nothing stored: \(history.stdout)")
    }

    @Test("a type without a signing identity: exit 1, signing.notFound; usage errors exit 2")
    func noIdentity() async throws {
        let workspace = try StoreWorkspace()
        let file = workspace.folder.appendingPathComponent("patch.json")
        try Data("{}".utf8).write(to: file)
        let result = try await Self.author(workspace, ["--id", "ORDER-1", "--patch", file.path], json: false)
        #expect(result.status == 1 && result.stderr.hasPrefix("orders: signing.notFound: "), "\(result.stderr)")
        let both = try await Self.author(workspace, ["--id", "ORDER-1", "--patch", file.path, file.path])
        #expect(both.status == 2)
    }
}
