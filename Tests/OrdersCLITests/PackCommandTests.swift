import Foundation
import TestArchiveTable
import Testing

@Suite("orders pack")
struct PackCommandTests {
    static func temporaryDirectory() throws -> URL {
        try TemporaryDirectory.make("orders-pack")
    }

    static let signing = ["--certificate", "pki/order.pem", "--key", "pki/order.key", "--intermediate", "pki/wwdr.pem"]

    @Test("a packed folder verifies, and openssl cms -verify accepts its signature")
    func packThenVerify() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("full.order")
        let pack = try await OrdersProcess.run(["pack", "sources/full"] + Self.signing + ["-o", output.path])
        #expect(pack.status == 0, "\(pack.stderr)")
        #expect(pack.stdout.hasPrefix("packed \(output.path) ("))
        #expect(pack.stderr.isEmpty)

        let verify = try await OrdersProcess.run(["verify", "--trust-root", "pki/root.pem", output.path])
        #expect(verify.status == 0, "\(verify.stdout)")

        let unzip = try await OrdersProcess.run(
            executable: URL(fileURLWithPath: "/usr/bin/unzip"), ["-q", output.path, "-d", "unpacked"], in: directory)
        #expect(unzip.status == 0)
        let openssl = try await OrdersProcess.run(
            executable: URL(fileURLWithPath: "/usr/bin/openssl"),
            [
                "cms", "-verify", "-binary", "-inform", "DER", "-in", "unpacked/signature", "-content", "unpacked/manifest.json",
                "-CAfile", TestArchiveTable.testRoot.path, "-purpose", "any", "-out", "/dev/null",
            ], in: directory)
        #expect(openssl.status == 0, "\(openssl.stderr)")
        #expect(openssl.stderr.contains("Verification successful"))
    }

    @Test("--signing-time makes the package reproducible; options change the signature form")
    func reproducible() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var outputs: [Data] = []
        for (name, extra) in [
            ("a", [String]()), ("b", []), ("c", ["--signer-id", "key-id"]), ("d", ["--compression", "stored"]),
        ] {
            let path = directory.appendingPathComponent("\(name).order").path
            let result = try await OrdersProcess.run(
                ["pack", "sources/small"] + Self.signing + ["--signing-time", "2026-01-15T10:00:00Z", "-o", path] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0] != outputs[2])
        #expect(outputs[0] != outputs[3])
        let verify = try await OrdersProcess.run(
            ["verify", "--trust-root", "pki/root.pem"]
                + ["a", "c", "d"].map { directory.appendingPathComponent("\($0).order").path })
        #expect(verify.status == 0, "\(verify.stdout)")
    }

    @Test("a malformed order.json is packed, with each problem as a warning on stderr")
    func warnsAboutOrderProblems() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"schemaVersion": 1}"#.utf8).write(to: directory.appendingPathComponent("order.json"))
        let output = directory.appendingPathComponent("x.order").path
        let result = try await OrdersProcess.run(["pack", directory.path] + Self.signing + ["-o", output])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "orders: warning: order.json: order.missingKey at orderTypeIdentifier: a required key is missing"))
        #expect(FileManager.default.fileExists(atPath: output))
    }

    @Test(
        "errors are one line on stderr with exit 2, and nothing is written",
        arguments: [
            (
                ["pack", "sources/small", "--certificate", "pki/order.pem", "--key", "pki/other-team.key"],
                "orders: the private key does not belong to the signing certificate\n"
            ),
            (
                ["pack", "no-such-dir", "--certificate", "pki/order.pem", "--key", "pki/order.key"],
                "orders: cannot pack no-such-dir: no such directory\n"
            ),
            (
                ["pack", "sources/small", "--certificate", "nope.pem", "--key", "pki/order.key"],
                "orders: cannot read certificate nope.pem: No such file or directory\n"
            ),
        ])
    func failures(_ arguments: [String], _ message: String) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.order").path
        let result = try await OrdersProcess.run(arguments + ["-o", output])
        #expect(result.status == 2)
        #expect(result.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
