import Foundation
import Glibc
import OrderPackage
import TestArchiveTable
import Testing
import WalletOrders

/// `orders serve` run as a service user that cannot read its key (issue 53, item 1): authoring
/// answers 503 saying why, and once the operator gives the user the key — `chown`, nothing else —
/// authoring works without a restart (a failed load is retried after a short backoff).
@Suite("Signing as the service's user")
struct ServiceUserSigningTests {
    static let nobody = 65534
    static let content = ServiceFixture.path("api", "v1", "orders", ServiceFixture.shopType, "ORDER-1", "content")

    /// The fixture's store, given to nobody; an API key for the shop.
    /// The identity is added by `orders signing add`, as an operator adds it (as root, who reads
    /// everything), with `environment` (a token's `SOFTHSM2_CONF`).
    static func store(key: [String], environment: [String: String]) async throws -> (ServiceFixture, token: String) {
        let fixture = try await ServiceFixture.make()
        let added = try await OrdersProcess.run(
            [
                "signing", "add", "--store", fixture.storePath, "--order-type", ServiceFixture.shopType, "--certificate",
                TestArchiveTable.directory.appendingPathComponent("pki/order.pem").path, "--intermediate",
                TestArchiveTable.directory.appendingPathComponent("pki/wwdr.pem").path, "--trust-root",
                TestArchiveTable.testRoot.path,
            ] + key, environment: environment)
        try #require(added.status == 0, "orders signing add: \(added.stderr)")
        let token = try await fixture.wallet.createAPIKey(name: "shop", orderTypes: [ServiceFixture.shopType]).token
        try await fixture.wallet.close()
        try Self.give(fixture.directory.path, to: nobody)
        return (fixture, token)
    }

    /// `chown -R uid:uid path`.
    static func give(_ path: String, to uid: Int) throws {
        var paths = [path]
        if let enumerator = FileManager.default.enumerator(atPath: path) {
            paths += enumerator.compactMap { $0 as? String }.map { path + "/" + $0 }
        }
        for path in paths { guard chown(path, uid_t(uid), gid_t(uid)) == 0 else { throw POSIXError(.EPERM) } }
    }

    static func patch(_ server: ServeProcess, token: String, status: String) throws -> (status: Int, text: String) {
        let connection = try RawConnection(port: server.port)
        defer { connection.close() }
        let answer = connection.exchange(
            "PATCH", content,
            headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/merge-patch+json"],
            body: Array(#"{"status":"\#(status)"}"#.utf8))
        return (answer?.status ?? 0, answer?.text ?? "no answer")
    }

    /// Authoring is refused with `expected` in its message until `fix` runs, then succeeds without
    /// a restart.
    static func refusedUntilFixed(
        key: [String], environment: [String: String], expected: String, fix: () throws -> Void
    )
        async throws
    {
        try #require(geteuid() == 0, "the test runs `orders serve` as nobody, which takes root (as CI runs)")
        let (fixture, token) = try await Self.store(key: key, environment: environment)
        let server = try await ServeProcess.start(
            store: fixture.storePath, asUser: nobody, group: nobody,
            arguments: [
                "--public-url", "https://wallet.example.com", "--allow-web-service-url",
                "\(ServiceFixture.shopType)=https://shop.example.com/wallet/",
            ],
            environment: environment)
        defer { _ = server.stop() }
        let refused = try Self.patch(server, token: token, status: "completed")
        #expect(refused.status == 503, "\(refused.text)")
        #expect(refused.text.contains(#""code":"signer.invalidPrivateKey""#), "\(refused.text)")
        #expect(refused.text.contains(expected), "\(refused.text)")
        try fix()
        var last = (status: 0, text: "")
        let signed = await Poll.until(timeout: .seconds(30), every: .milliseconds(200)) {
            last = (try? Self.patch(server, token: token, status: "completed")) ?? (0, "")
            return last.status == 200
        }
        #expect(signed, "authoring works once the key is readable, without a restart: \(last.text)")
    }

    @Test("a key file the service's user cannot read: 503 saying so; chown, and the next requests sign")
    func keyFile() async throws {
        let folder = try TemporaryDirectory.make("service-user-key")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let key = folder.appendingPathComponent("order.key")
        try FileManager.default.copyItem(at: TestArchiveTable.directory.appendingPathComponent("pki/order.key"), to: key)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
        try await Self.refusedUntilFixed(
            key: ["--key", key.path], environment: [:],
            expected: "permission denied: the file is root:root, mode 0600, and this process runs as nobody (uid 65534)"
        ) {
            try Self.give(key.path, to: Self.nobody)
        }
    }

    @Test("a SoftHSM2 token folder the service's user cannot read: 503 naming the folder; chown, and the next requests sign")
    func tokenFolder() async throws {
        let token = try SoftHSMToken()
        let tokens = token.folder.appendingPathComponent("tokens").path
        for path in [token.folder.path, tokens] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        try Self.give(token.pinFile, to: Self.nobody)
        try await Self.refusedUntilFixed(
            key: ["--pkcs11-uri", token.keyURI, "--pkcs11-module", SoftHSMToken.module, "--passphrase-file", token.pinFile],
            environment: token.environment, expected: "the token folder \(tokens)/"
        ) {
            try Self.give(tokens, to: Self.nobody)
        }
    }
}
