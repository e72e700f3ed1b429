import Foundation
import TestArchiveTable
import Testing

/// `orders signing add|list|remove` (issue 43, item 1): each refusal with its code and exit
/// status, keys named by file or PKCS#11 URI (SoftHSM2) and never stored, secrets never printed.
@Suite("orders signing")
struct SigningCommandTests {
    static let type = "order.com.example.shop"

    static func pki(_ name: String) -> String {
        TestArchiveTable.directory.appendingPathComponent("pki/\(name)").path
    }

    static func add(
        _ workspace: StoreWorkspace, _ arguments: [String], environment: [String: String] = [:]
    ) async throws
        -> OrdersProcess.Result
    {
        try await workspace.run(
            ["signing", "add"] + arguments + ["--trust-root", TestArchiveTable.testRoot.path], environment: environment)
    }

    @Test(
        "refusals: exit 1 with the code, nothing stored",
        arguments: [
            (
                ["--order-type", type, "--certificate", pki("pass-type.pem"), "--key", pki("pass-type.key")],
                "signing.notOrderTypeCertificate"
            ),
            (
                ["--order-type", "order.com.example.other", "--certificate", pki("order.pem"), "--key", pki("order.key")],
                "signing.wrongOrderType"
            ),
            (
                ["--order-type", type, "--certificate", pki("expired.pem"), "--key", pki("expired.key")],
                "signing.certificateExpired"
            ),
            (
                [
                    "--order-type", type, "--certificate", pki("untrusted.pem"), "--key", pki("untrusted.key"), "--intermediate",
                    pki("untrusted-wwdr.pem"),
                ],
                "signing.untrustedChain"
            ),
            (["--order-type", type, "--certificate", pki("order.pem"), "--key", pki("other-type.key")], "signer.keyMismatch"),
            (
                [
                    "--order-type", type, "--certificate", pki("order.pem"), "--pkcs11-uri",
                    "pkcs11:token=orders;object=order-key;pin-value=1234",
                ],
                "signer.secretInKeyLocation"
            ),
            (
                [
                    "--order-type", type, "--certificate", pki("order.pem"), "--pkcs11-uri",
                    "pkcs11:token=orders;object=order-key?pin-source=file:/run/secrets/pin",
                ],
                "signer.secretInKeyLocation"
            ),
            (
                ["--order-type", type, "--key", pki("order.p12"), "--passphrase-env", "WALLET_ORDERS_UNSET"],
                "signer.secretUnavailable"
            ),
            (["--order-type", type, "--key", pki("order.p12")], "signer.invalidPrivateKey"),
        ])
    func refused(_ arguments: [String], _ code: String) async throws {
        let workspace = try StoreWorkspace()
        let chain =
            arguments.contains("--intermediate") || arguments.contains(Self.pki("order.p12"))
            ? [] : ["--intermediate", Self.pki("wwdr.pem")]
        let result = try await Self.add(workspace, arguments + chain)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("orders: \(code): "), "\(result.stderr)")
        let listed = try await workspace.run(["signing", "list", "--json"])
        #expect(listed.status == 0 && listed.stdout.isEmpty, "\(listed.stdout)\(listed.stderr)")
    }

    @Test(
        "without its intermediate, the chain message names the signing certificate and its issuer and says --intermediate (issue 53)"
    )
    func missingIntermediate() async throws {
        let workspace = try StoreWorkspace()
        let result = try await Self.add(
            workspace, ["--order-type", Self.type, "--certificate", Self.pki("order.pem"), "--key", Self.pki("order.key")])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("orders: signing.untrustedChain: "), "\(result.stderr)")
        #expect(result.stderr.contains("the signing certificate 'UID=order.com.example.shop"), "\(result.stderr)")
        #expect(result.stderr.contains("was issued by 'CN=Wallet Orders Test WWDR CA"), "\(result.stderr)")
        #expect(result.stderr.contains("--intermediate FILE"))
        #expect(!result.stderr.contains("it ends at the root 'CN=Wallet Orders Test WWDR CA"), "the intermediate is no root")
    }

    @Test(
        "run as the service's user: an unreadable key file, passphrase file, folder and token folder each say so, not \"not found\" (issue 53, item 1)"
    )
    func unreadableAsServiceUser() async throws {
        try #require(geteuid() == 0, "the test runs `orders` as nobody, which takes root (as CI runs)")
        let workspace = try StoreWorkspace()
        let folder = workspace.folder
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        let key = folder.appendingPathComponent("order.key")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.pki("order.key")), to: key)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
        let closed = folder.appendingPathComponent("closed")
        try FileManager.default.createDirectory(at: closed, withIntermediateDirectories: false)
        try FileManager.default.copyItem(at: key, to: closed.appendingPathComponent("order.key"))
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: closed.path)
        let passphrase = folder.appendingPathComponent("passphrase")
        try Data("secret\n".utf8).write(to: passphrase)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passphrase.path)

        func addAsNobody(_ arguments: [String], environment: [String: String] = [:]) async throws -> OrdersProcess.Result {
            try await OrdersProcess.run(
                executable: URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--reuid=65534", "--regid=65534", "--clear-groups", OrdersProcess.binary.path, "signing", "add"] + arguments
                    + [
                        "--order-type", Self.type, "--intermediate", Self.pki("wwdr.pem"), "--trust-root",
                        TestArchiveTable.testRoot.path, "--store", workspace.store,
                    ], environment: environment, in: folder)
        }
        let certificate = ["--certificate", Self.pki("order.pem")]
        let unreadable = try await addAsNobody(certificate + ["--key", key.path])
        #expect(unreadable.status == 1)
        #expect(
            unreadable.stderr.contains(
                "signer.invalidPrivateKey: the private key cannot be read: cannot read \(key.path): permission denied: the file is "
                    + "root:root, mode 0600, and this process runs as nobody (uid 65534)"), "\(unreadable.stderr)")
        let inClosed = try await addAsNobody(certificate + ["--key", closed.appendingPathComponent("order.key").path])
        #expect(
            inClosed.stderr.contains("cannot enter the folder \(closed.path) (root:root, mode 0700)"), "\(inClosed.stderr)")
        let secret = try await addAsNobody(["--key", Self.pki("order.p12"), "--passphrase-file", passphrase.path])
        #expect(secret.stderr.hasPrefix("orders: signer.secretUnavailable: "), "\(secret.stderr)")
        #expect(secret.stderr.contains("permission denied: the file is root:root, mode 0600"), "\(secret.stderr)")

        // A token folder the service's user cannot read: SoftHSM2 says only that the object is not found.
        let token = try SoftHSMToken()
        let pin = folder.appendingPathComponent("pin")
        try Data("\(token.pin)\n".utf8).write(to: pin)
        let tokens = token.folder.appendingPathComponent("tokens").path
        for path in [token.folder.path, tokens] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        let inToken = try await addAsNobody(
            certificate + ["--pkcs11-uri", token.keyURI, "--pkcs11-module", SoftHSMToken.module, "--passphrase-file", pin.path],
            environment: token.environment)
        #expect(inToken.status == 1)
        #expect(inToken.stderr.contains("the token folder \(tokens)/"), "\(inToken.stderr)")
        #expect(inToken.stderr.contains("is not readable by this process (nobody (uid 65534))"), "\(inToken.stderr)")
    }

    @Test("usage errors: exit 2")
    func usage() async throws {
        let workspace = try StoreWorkspace()
        for arguments in [
            ["--order-type", Self.type, "--certificate", Self.pki("order.pem")],
            ["--order-type", Self.type, "--key", Self.pki("order.key"), "--pkcs11-uri", "pkcs11:object=k"],
            ["--order-type", Self.type, "--key", Self.pki("order.key"), "--pkcs11-module", "/m.so"],
            ["--order-type", Self.type, "--pkcs11-uri", "pkcs11:object=k"],
            ["--order-type", Self.type, "--key", Self.pki("order.p12"), "--passphrase-env", "A", "--passphrase-file", "b"],
        ] {
            let result = try await Self.add(workspace, arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
        }
        let unreadable = try await Self.add(
            workspace, ["--order-type", Self.type, "--certificate", "/nonexistent.pem", "--key", Self.pki("order.key")])
        #expect(unreadable.status == 2 && unreadable.stderr.contains("/nonexistent.pem"), "\(unreadable.stderr)")
    }

    /// A copy of the test PKI's PKCS#12 file in `folder`, encrypted with a new random passphrase:
    /// a secret no path, name or fixture can hold (the shipped file's passphrase is
    /// `wallet-orders`, the name a clone of the repository has).
    static func pkcs12WithRandomPassphrase(in folder: URL) throws -> (path: String, passphrase: String) {
        let passphrase = TestSecret.random()
        let pem = folder.appendingPathComponent("order-p12.pem").path
        let path = folder.appendingPathComponent("order-random.p12").path
        try Self.openssl(["pkcs12", "-in", pki("order.p12"), "-passin", "pass:wallet-orders", "-nodes", "-out", pem], [:])
        try Self.openssl(
            ["pkcs12", "-export", "-in", pem, "-passout", "env:P12_PASSPHRASE", "-out", path], ["P12_PASSPHRASE": passphrase])
        try FileManager.default.removeItem(atPath: pem)
        return (path, passphrase)
    }

    private static func openssl(_ arguments: [String], _ environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "openssl \(arguments.first ?? "")")
    }

    @Test("a PKCS#12 file with its passphrase in a variable: added, listed without the secret, replaced, removed")
    func pkcs12Lifecycle() async throws {
        let workspace = try StoreWorkspace()
        let (p12, passphrase) = try Self.pkcs12WithRandomPassphrase(in: workspace.folder)
        let secret = ["ORDER_KEY_PASSPHRASE": passphrase]
        let added = try await Self.add(
            workspace, ["--order-type", Self.type, "--key", p12, "--passphrase-env", "ORDER_KEY_PASSPHRASE"],
            environment: secret)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "added \(Self.type) (team ABCDE12345, valid until 2055-12-31T23:59:59Z)\n")
        // What the store does keep is found where this test looks: the scan below can see a secret.
        let stored = workspace.storeBytes()
        #expect(stored.range(of: Data("ORDER_KEY_PASSPHRASE".utf8)) != nil, "the variable's name is stored and seen")
        #expect(stored.range(of: Data(passphrase.utf8)) == nil, "no passphrase stored")
        #expect(stored.range(of: Data("BEGIN PRIVATE KEY".utf8)) == nil, "no key stored")

        let json = try await workspace.run(["signing", "list", "--json"])
        #expect(json.lines.count == 1)
        #expect(json.stdout.contains(#""key":"file \#(p12), passphrase from $ORDER_KEY_PASSPHRASE""#), "\(json.stdout)")
        #expect(json.stdout.contains(#""orderTypeIdentifier":"order.com.example.shop""#))
        let table = try await workspace.run(["signing", "list"])
        #expect(table.lines.first?.hasPrefix("ORDER TYPE") == true && table.stdout.contains("ABCDE12345"))

        // Another identity for the type is staged beside the active one; --activate replaces it at once.
        let next = [
            "--order-type", Self.type, "--certificate", Self.pki("order.pem"), "--key", Self.pki("order.key"), "--intermediate",
            Self.pki("wwdr.pem"), "--json",
        ]
        let staged = try await Self.add(workspace, next)
        #expect(staged.status == 0 && staged.stdout.contains(#""staged":true"#), "\(staged.stdout)\(staged.stderr)")
        let listedAfterStaging = try await workspace.run(["signing", "list", "--json"])
        #expect(listedAfterStaging.stdout.contains(".p12, passphrase from"), "the active identity is still the PKCS#12 one")
        let replaced = try await Self.add(workspace, next + ["--activate"])
        #expect(
            replaced.status == 0 && replaced.stdout.contains(#""replacedAnother":true"#)
                && replaced.stdout.contains(#""staged":false"#), "\(replaced.stderr)")

        let everything = [added, json, table, staged, replaced].map { $0.stdout + $0.stderr }.joined()
        #expect(!everything.contains(passphrase), "no secret printed")
        #expect(workspace.storeBytes().range(of: Data(passphrase.utf8)) == nil, "no passphrase stored")

        let removed = try await workspace.run(["signing", "remove", "--order-type", Self.type])
        #expect(removed.status == 0 && removed.stdout == "removed the signing identity of \(Self.type)\n")
        let again = try await workspace.run(["signing", "remove", "--order-type", Self.type])
        #expect(again.status == 1 && again.stderr.hasPrefix("orders: signing.notFound: "), "\(again.stderr)")
    }

    @Test("a key in a SoftHSM2 token, through OpenSSL's pkcs11 engine: checked by signing with it; a wrong PIN is refused")
    func pkcs11() async throws {
        let token = try SoftHSMToken()
        let workspace = try StoreWorkspace()
        let base = [
            "--order-type", Self.type, "--certificate", Self.pki("order.pem"), "--intermediate", Self.pki("wwdr.pem"),
            "--pkcs11-uri", token.keyURI, "--pkcs11-module", SoftHSMToken.module,
        ]
        let added = try await Self.add(
            workspace, base + ["--passphrase-file", token.pinFile, "--json"], environment: token.environment)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(
            added.stdout.contains(#""key":"\#(token.keyURI) via \#(SoftHSMToken.module), PIN from file \#(token.pinFile)""#),
            "\(added.stdout)")
        #expect(added.stderr.isEmpty, "libp11 prints nothing of its own: \(added.stderr)")

        let wrongPIN = try await Self.add(
            workspace, base + ["--passphrase-env", "PIN"], environment: token.environment.merging(["PIN": "0000"]) { $1 })
        #expect(wrongPIN.status == 1 && wrongPIN.stderr.hasPrefix("orders: signer.invalidPrivateKey: "), "\(wrongPIN.stderr)")
        let noPIN = try await Self.add(workspace, base, environment: token.environment)
        #expect(noPIN.status == 1 && noPIN.stderr.contains("(no PIN was given)"), "\(noPIN.stderr)")
        let otherKey = try await Self.add(
            workspace,
            base.map { $0 == Self.pki("order.pem") ? Self.pki("other-type.pem") : $0 } + ["--passphrase-file", token.pinFile],
            environment: token.environment)
        #expect(otherKey.status == 1 && otherKey.stderr.hasPrefix("orders: signer.keyMismatch: "), "\(otherKey.stderr)")

        let stored = workspace.storeBytes()
        #expect(stored.range(of: Data(token.pinFile.utf8)) != nil, "where the PIN is is stored, and seen here")
        #expect(stored.range(of: Data(token.pin.utf8)) == nil, "no PIN stored")
        let listed = try await workspace.run(["signing", "list", "--json"])
        #expect(listed.lines.count == 1 && listed.stdout.contains(token.keyURI))

        // Authoring signs with the key in the token; the version verifies.
        let sources = TestArchiveTable.directory.appendingPathComponent("sources/small")
        let authored = try await workspace.run(
            [
                "author", "--type", Self.type, "--id", "ORDER-123", sources.appendingPathComponent("order.json").path,
                "--resources",
                sources.path, "--public-url", "https://shop.example.com/wallet/", "--trust-root", TestArchiveTable.testRoot.path,
            ], environment: token.environment)
        #expect(authored.status == 0, "\(authored.stderr)")
        let archive = workspace.folder.appendingPathComponent("hsm.order").path
        let exported = try await workspace.run(["export", "--type", Self.type, "--id", "ORDER-123", "--output", archive])
        #expect(exported.status == 0, "\(exported.stderr)")
        let verified = try await OrdersProcess.run(
            ["verify", "--trust-root", TestArchiveTable.testRoot.path, archive], in: workspace.folder)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }
}
