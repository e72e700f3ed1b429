import Foundation
import OrderPackage
import TestArchiveTable
import Testing

@testable import orders

/// `orders doctor` checks what breaks a deployment (issue 53, items 3 and 4): each check
/// produces ok, warn and error here, as its line and in `--json`, and the exit status follows
/// the worst.
@Suite("orders doctor")
struct DoctorCommandTests {
    static let type = "order.com.example.shop"

    static func pki(_ name: String) -> String { AuthorCommandTests.pki(name) }

    /// A store holding the test identity, its key file copied into the workspace (mode 0600).
    static func workspace(
        certificate: String = pki("order.pem"), key: String = pki("order.key")
    ) async throws -> (
        StoreWorkspace, key: URL
    ) {
        let workspace = try StoreWorkspace()
        let keyFile = workspace.folder.appendingPathComponent("order.key")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: key), to: keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
        let added = try await workspace.run([
            "signing", "add", "--order-type", type, "--certificate", certificate, "--key", keyFile.path,
            "--intermediate", pki("wwdr.pem"), "--trust-root", TestArchiveTable.testRoot.path,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        return (workspace, keyFile)
    }

    /// An APNs token key (P-256, PKCS#8), as Apple issues `AuthKey_….p8`.
    static func p8(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("AuthKey_ABC123DEFG.p8").path
        _ = try AuthorCommandTests.runData(
            "/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path])
        return path
    }

    static func doctor(
        _ workspace: StoreWorkspace, _ arguments: [String]
    ) async throws -> (
        status: Int32, checks: [String: (status: String, detail: String, code: String?)], lines: [String]
    ) {
        let human = try await workspace.run(["doctor"] + arguments)
        let json = try await workspace.run(["doctor", "--json"] + arguments)
        #expect(human.status == json.status)
        let report = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        var checks: [String: (String, String, String?)] = [:]
        for check in report["checks"] as? [[String: Any]] ?? [] {
            let name = check["check"] as? String ?? ""
            checks[name] = (check["status"] as? String ?? "", check["detail"] as? String ?? "", check["code"] as? String)
        }
        let worst =
            checks.values.contains { $0.0 == "error" } ? "error" : checks.values.contains { $0.0 == "warn" } ? "warn" : "ok"
        #expect(report["status"] as? String == worst)
        #expect(human.lines.count == checks.count, "\(human.stdout)")
        return (human.status, checks, human.lines)
    }

    static let trust = ["--trust-root", TestArchiveTable.testRoot.path]

    @Test("a deployment that works: every check ok, exit 0")
    func allOK() async throws {
        let (workspace, _) = try await Self.workspace()
        let p8 = try Self.p8(in: workspace.folder)
        let result = try await Self.doctor(
            workspace,
            Self.trust + [
                "--public-url", "https://wallet.example.com", "--push-key-p8", p8, "--key-id", "ABC123DEFG", "--team-id",
                "DEF123GHIJ",
            ])
        #expect(result.status == 0)
        #expect(result.checks.values.allSatisfy { $0.status == "ok" }, "\(result.lines)")
        #expect(
            Set(result.checks.keys) == [
                "store", "store-files", "trust-roots", "public-url", "apns", "signing \(Self.type)",
                "expiry \(Self.type) certificate", "expiry \(Self.type) intermediate", "files \(Self.type)",
            ])
        #expect(result.checks["apns"]?.detail.contains("signs a provider token") == true)
        #expect(result.checks["signing \(Self.type)"]?.detail.contains("probe signature verifies") == true)
        #expect(result.checks["store-files"]?.detail.contains("orders.sqlite 0600") == true)
        #expect(result.lines.first?.hasPrefix("ok    store: \(workspace.store): quick_check found nothing wrong") == true)
    }

    @Test("warnings, exit 0: no public URL, no APNs credentials, a key file everyone reads, a certificate expiring in 10 days")
    func warnings() async throws {
        let short = try ShortLivedCertificate.make(days: 10)
        let (workspace, keyFile) = try await Self.workspace(certificate: short.certificate, key: short.key)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: workspace.store)
        let result = try await Self.doctor(workspace, Self.trust)
        #expect(result.status == 0, "warnings are not errors: \(result.lines)")
        for check in ["public-url", "apns", "files \(Self.type)", "expiry \(Self.type) certificate", "store-files"] {
            #expect(result.checks[check]?.status == "warn", "\(check): \(result.lines)")
        }
        let expiry = try #require(result.checks["expiry \(Self.type) certificate"])
        #expect(expiry.detail.contains("in 9 days") || expiry.detail.contains("in 10 days"), "\(expiry.detail)")
        #expect(expiry.detail.contains("orders signing add"))
        #expect(result.checks["files \(Self.type)"]?.detail.contains("\(keyFile.path) is readable by everyone (0644)") == true)
        #expect(result.checks["public-url"]?.detail.contains("authoring.publicURLRequired") == true)
        #expect(result.checks["signing \(Self.type)"]?.status == "ok", "it still signs")
    }

    @Test("errors, exit 1: a key gone, unusable APNs credentials, an unreadable trust root, a public URL that is not https")
    func errors() async throws {
        let (workspace, keyFile) = try await Self.workspace()
        try FileManager.default.removeItem(at: keyFile)
        let badP8 = workspace.folder.appendingPathComponent("AuthKey_BAD.p8")
        try Data("-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n".utf8).write(to: badP8)
        let result = try await Self.doctor(
            workspace,
            Self.trust + [
                "--trust-root", workspace.folder.appendingPathComponent("missing-root.pem").path, "--public-url",
                "http://wallet.example.com", "--push-key-p8", badP8.path, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ",
            ])
        #expect(result.status == 1)
        for check in ["signing \(Self.type)", "apns", "trust-roots", "public-url"] {
            #expect(result.checks[check]?.status == "error", "\(check): \(result.lines)")
        }
        #expect(result.checks["signing \(Self.type)"]?.code == "signer.invalidPrivateKey")
        #expect(result.checks["trust-roots"]?.detail.contains("missing-root.pem") == true)
        #expect(result.lines.contains { $0.hasPrefix("error signing \(Self.type): signer.invalidPrivateKey: ") })
    }

    @Test("with no identities and a damaged store: the store's error, exit 1; no store at all: exit 2")
    func store() async throws {
        let missing = try await StoreWorkspace().run(["doctor"])
        #expect(missing.status == 2 && missing.stderr.contains("there is no store"))
        let (workspace, _) = try await Self.workspace()
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: workspace.store))
        try handle.seek(toOffset: 6 * 4096)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 64))
        try handle.close()
        let result = try await Self.doctor(workspace, Self.trust)
        #expect(result.status == 1)
        #expect(result.checks["store"]?.status == "error" && result.checks["store"]?.code == "store.corrupt")
        #expect(result.checks["signing \(Self.type)"] == nil, "a damaged store's identities are not read")
    }

    @Test("an expiry check: ok beyond 30 days, warn within, error once expired (the certificate's and the intermediate's words)")
    func expiryStates() {
        let notAfter = Date(timeIntervalSince1970: 1_800_000_000)
        let certificate = CertificateExpiry(role: .certificate, subject: "CN=Order Type ID", notAfter: notAfter)
        let intermediate = CertificateExpiry(role: .intermediate, subject: "CN=WWDR", notAfter: notAfter)
        let far = DeploymentDoctor.expiry(certificate, of: Self.type, now: notAfter.addingTimeInterval(-31 * 86_400))
        #expect(far.status == .ok && far.detail.hasSuffix("in 31 days") && far.check == "expiry \(Self.type) certificate")
        let near = DeploymentDoctor.expiry(certificate, of: Self.type, now: notAfter.addingTimeInterval(-29.5 * 86_400))
        #expect(near.status == .warn && near.detail.contains("in 29 days: request a new Order Type ID certificate"))
        let wwdr = DeploymentDoctor.expiry(intermediate, of: Self.type, now: notAfter.addingTimeInterval(-86_400))
        #expect(wwdr.status == .warn && wwdr.detail.contains("add Apple's current WWDR intermediate"))
        let expired = DeploymentDoctor.expiry(certificate, of: Self.type, now: notAfter.addingTimeInterval(1))
        #expect(expired.status == .error && expired.code == "signing.certificateExpired")
        #expect(expired.line.hasPrefix("error expiry \(Self.type) certificate: CN=Order Type ID expired at "))
    }
}
