import Foundation
import OrderPackage
import TestArchiveTable
import Testing

@Suite("orders verify")
struct VerifyCommandTests {
    static let trust = ["--trust-root", "pki/root.pem"]

    @Test("every TestArchives row gets its verdict, codes and exit status", arguments: TestArchiveTable.rows)
    func row(_ row: TestArchiveTable.Row) async throws {
        let result = try await OrdersProcess.run(["verify", "--json"] + Self.trust + row.options + [row.file])
        #expect(result.status == (row.valid ? 0 : 1), "\(result.stderr)")
        let line = try #require(result.lines.first)
        #expect(result.lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["file"] as? String == row.file)
        #expect(object["valid"] as? Bool == row.valid)
        let errors = try #require(object["errors"] as? [[String: Any]])
        let warnings = try #require(object["warnings"] as? [[String: Any]])
        #expect(Set(errors.compactMap { $0["code"] as? String }) == row.errorCodes)
        #expect(Set(warnings.compactMap { $0["code"] as? String }) == row.warningCodes)
        for issue in errors + warnings {
            #expect(issue["message"] is String)
            #expect(issue.keys.contains("path"))
        }
        for key in ["orderTypeIdentifier", "orderIdentifier", "updatedAt", "teamIdentifier", "signingTime"] {
            #expect(object.keys.contains(key), "missing key \(key)")
        }
    }

    @Test("a chain to a root that is not trusted names the root and says how to trust a test PKI's")
    func untrustedRootNamed() async throws {
        let result = try await OrdersProcess.run(["verify", "valid/basic.order"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("signature.untrustedChain"), "\(result.stdout)")
        #expect(result.stdout.contains("it ends at the root 'CN=Wallet Orders Test Root CA,"), "\(result.stdout)")
        #expect(result.stdout.contains("Apple's roots") && result.stdout.contains("--trust-root FILE"))
    }

    @Test("JSON Lines: one object per file, keys sorted, facts filled in")
    func jsonLines() async throws {
        let result = try await OrdersProcess.run(
            ["verify", "--json"] + Self.trust + ["valid/basic.order", "invalid/not-a-zip.order"])
        #expect(result.status == 1)
        #expect(result.lines.count == 2)
        #expect(result.lines[0].hasPrefix(#"{"archiveSHA256":"#))
        #expect(result.lines[0].contains(#""errors":[],"file":"valid/basic.order","#))
        #expect(result.lines[0].contains(#""orderIdentifier":"ORDER-123","orderTypeIdentifier":"order.com.example.shop""#))
        #expect(result.lines[0].hasSuffix(#""valid":true,"warnings":[]}"#))
        #expect(result.lines[0].contains(#""updatedAt":"2026-01-15T09:30:00.125Z""#))
        #expect(result.lines[0].contains(#""teamIdentifier":"ABCDE12345""#))
        #expect(result.lines[0].contains(#""signingTime":"2026-01-15T10:00:00Z""#))
        #expect(
            result.lines[1].contains(
                #""errors":[{"code":"archive.notZip","message":"the file is not a zip archive","path":null}]"#))
        #expect(result.lines[1].contains(#""orderIdentifier":null"#))
    }

    @Test("the human report: ✓ with facts, ✗ with one line per problem and its path")
    func humanReport() async throws {
        let valid = try await OrdersProcess.run(["verify"] + Self.trust + ["valid/basic.order"])
        #expect(valid.status == 0)
        #expect(
            valid.stdout
                == "✓ valid/basic.order  order.com.example.shop / ORDER-123  updated 2026-01-15T09:30:00.125Z  team ABCDE12345\n")

        let invalid = try await OrdersProcess.run(["verify"] + Self.trust + ["invalid/order-invalid-values.order"])
        #expect(invalid.status == 1)
        #expect(invalid.lines.first == "✗ invalid/order-invalid-values.order  order.com.example.shop / ORDER-123")
        #expect(
            invalid.lines.contains(
                "    order.invalidValue at fulfillments[0].status: 'lost' is not one of 'open', 'processing', 'onTheWay', 'outForDelivery', 'delivered', 'shipped', 'issue', 'cancelled'"
            ))
        #expect(invalid.stderr.isEmpty)

        let pass = try await OrdersProcess.run(["verify"] + Self.trust + ["invalid/wallet-pass.order"])
        #expect(
            pass.stdout.contains(
                "archive.missingFile at order.json: the package has no order.json; this looks like a Wallet pass (pass.json), not an order"
            ))
    }

    @Test("valid and invalid together exit 1; all valid exit 0")
    func exitStatus() async throws {
        #expect(try await OrdersProcess.run(["verify"] + Self.trust + ["valid/basic.order", "valid/full.order"]).status == 0)
        #expect(try await OrdersProcess.run(["verify"] + Self.trust + ["valid/basic.order", "invalid/empty.order"]).status == 1)
    }

    @Test("an unreadable file is an I/O error: message on stderr, exit 2, other files still reported")
    func unreadableFile() async throws {
        let result = try await OrdersProcess.run(["verify"] + Self.trust + ["valid/basic.order", "no/such.order"])
        #expect(result.status == 2)
        #expect(result.stdout.hasPrefix("✓ valid/basic.order"))
        #expect(result.stderr == "orders: cannot read no/such.order: No such file or directory\n")
    }

    @Test(
        "usage errors exit 2 with a message, never a stack trace",
        arguments: [
            ["verify"],
            ["verify", "--at", "yesterday", "valid/basic.order"],
            ["verify", "--at-signing-time", "--at", "2026-01-01T00:00:00Z", "valid/basic.order"],
            ["verify", "--no-such-option", "valid/basic.order"],
            ["frobnicate"],
        ])
    func usageErrors(_ arguments: [String]) async throws {
        let result = try await OrdersProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("Error:") || result.stderr.contains("orders:"))
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test("a missing trust root file is an I/O error naming the file")
    func missingTrustRoot() async throws {
        let result = try await OrdersProcess.run(["verify", "--trust-root", "nope.pem", "valid/basic.order"])
        #expect(result.status == 2)
        #expect(result.stderr == "orders: cannot read trust root nope.pem: No such file or directory\n")
    }

    @Test("ORDERS_TRUST_ROOTS adds roots like --trust-root")
    func trustRootsFromEnvironment() async throws {
        let withoutRoot = try await OrdersProcess.run(["verify", "--json", "valid/basic.order"])
        #expect(withoutRoot.status == 1)
        #expect(withoutRoot.stdout.contains("signature.untrustedChain"))
        let withRoot = try await OrdersProcess.run(
            ["verify", "valid/basic.order"], environment: ["ORDERS_TRUST_ROOTS": "/nonexistent-is-skipped-if-empty::pki/root.pem"]
        )
        // A listed path that does not exist is an error, not silently skipped.
        #expect(withRoot.status == 2)
        let good = try await OrdersProcess.run(
            ["verify", "valid/basic.order"], environment: ["ORDERS_TRUST_ROOTS": "pki/root.pem:"])
        #expect(good.status == 0)
    }

    @Test("--help exits 0 and documents the exit codes")
    func help() async throws {
        let result = try await OrdersProcess.run(["verify", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("--at-signing-time"))
        #expect(result.stdout.contains("Exit status: 0 all valid, 1 any invalid, 2 usage or I/O error."))
    }

    @Test("works from any working directory")
    func otherDirectory() async throws {
        let archive = TestArchiveTable.directory.appendingPathComponent("valid/basic.order").path
        let result = try await OrdersProcess.run(
            ["verify", "--trust-root", TestArchiveTable.testRoot.path, archive], in: URL(fileURLWithPath: "/"))
        #expect(result.status == 0)
    }
}
