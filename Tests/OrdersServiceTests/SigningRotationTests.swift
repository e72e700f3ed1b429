import Foundation
import OrderPackage
import TestArchiveTable
import Testing
import WalletOrders

/// Rotating a signing identity on a store two instances share, one of which lacks the new
/// identity's passphrase (issue 53, item 2): the new identity is staged, authoring never answers
/// 503, activation is refused while an instance cannot load it, and after activation both
/// instances sign with it.
@Suite("Rotating a signing identity without an outage")
struct SigningRotationTests {
    static let type = ServiceFixture.shopType
    static let content = ServiceFixture.path("api", "v1", "orders", type, "ORDER-1", "content")

    /// `orders ARGUMENTS --store STORE` with `environment`.
    static func orders(
        _ arguments: [String], store: String, environment: [String: String] = [:]
    ) async throws -> OrdersProcess.Result {
        try await OrdersProcess.run(arguments + ["--store", store], environment: environment)
    }

    /// The staged identity's instances as `orders signing status --json` lists them: instance → loaded.
    static func stagedInstances(store: String) async throws -> [String: Bool] {
        let status = try await orders(["signing", "status", "--json"], store: store)
        guard let line = status.stdout.split(separator: "\n").first,
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let staged = object["staged"] as? [String: Any], let instances = staged["instances"] as? [[String: Any]]
        else { return [:] }
        var loaded: [String: Bool] = [:]
        for instance in instances where instance["live"] as? Bool == true {
            loaded[instance["instance"] as? String ?? ""] = instance["loaded"] as? Bool
        }
        return loaded
    }

    @Test(
        "two instances, one without the new identity's passphrase: never a 503; activation refused until both can load it; then both sign with it"
    )
    func rotation() async throws {
        let fixture = try await ServiceFixture.make()
        try await ServiceFixture.addSigningIdentity(to: fixture.wallet)
        let token = try await fixture.wallet.createAPIKey(name: "shop", orderTypes: [Self.type]).token
        let passphrase = TestSecret.random()
        let p12 = try ShortLivedCertificate.pkcs12(days: 365, passphrase: passphrase)
        let serve = [
            "--public-url", "https://wallet.example.com", "--allow-web-service-url",
            "\(Self.type)=https://shop.example.com/wallet/", "--signing-check-interval", "1",
        ]
        let withSecret = ["NEW_ORDER_KEY_PASSPHRASE": passphrase]
        let a = try await ServeProcess.start(store: fixture.storePath, arguments: serve, environment: withSecret)
        defer { _ = a.stop() }
        var b = try await ServeProcess.start(store: fixture.storePath, arguments: serve)
        defer { _ = b.stop() }

        var answers: [Int] = []
        var deviceToken = ""
        func author(_ server: ServeProcess) throws {
            let connection = try RawConnection(port: server.port)
            defer { connection.close() }
            let answer = connection.exchange(
                "PATCH", Self.content,
                headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/merge-patch+json"],
                body: Array(#"{"orderNumber":"\#(UUID().uuidString)"}"#.utf8))
            answers.append(answer?.status ?? 0)
            if let body = answer?.body, let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
                let details = object["orderDetails"] as? [String: Any], let token = details["authenticationToken"] as? String
            {
                deviceToken = token
            }
        }
        try author(a)
        try author(b)

        let staged = try await Self.orders(
            [
                "signing", "add", "--order-type", Self.type, "--key", p12, "--passphrase-env", "NEW_ORDER_KEY_PASSPHRASE",
                "--intermediate", TestArchiveTable.directory.appendingPathComponent("pki/wwdr.pem").path, "--trust-root",
                TestArchiveTable.testRoot.path,
            ], store: fixture.storePath, environment: withSecret)
        #expect(staged.status == 0 && staged.stdout.hasPrefix("staged \(Self.type)"), "\(staged.stdout)\(staged.stderr)")

        // Each instance checks the staged identity: a can, b cannot. Authoring goes on meanwhile.
        var instances: [String: Bool] = [:]
        let reported = await Poll.until(timeout: .seconds(30), every: .milliseconds(200)) {
            try? author(a)
            try? author(b)
            instances = (try? await Self.stagedInstances(store: fixture.storePath)) ?? [:]
            return instances.count == 2
        }
        #expect(reported && Set(instances.values) == [true, false], "\(instances)")
        let refused = try await Self.orders(["signing", "activate", "--order-type", Self.type], store: fixture.storePath)
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(refused.stderr.hasPrefix("orders: signing.notLoadableEverywhere: "), "\(refused.stderr)")
        #expect(refused.stderr.contains("signer.secretUnavailable"), "names why the instance cannot: \(refused.stderr)")
        try author(a)
        try author(b)

        // The operator gives b the variable and restarts it; its old reports go with it.
        _ = await b.stop()
        b = try await ServeProcess.start(store: fixture.storePath, arguments: serve, environment: withSecret)
        let ready = await Poll.until(timeout: .seconds(30), every: .milliseconds(200)) {
            try? author(a)
            try? author(b)
            let now = (try? await Self.stagedInstances(store: fixture.storePath)) ?? [:]
            return now.count == 2 && now.values.allSatisfy { $0 }
        }
        #expect(ready)
        let activated = try await Self.orders(["signing", "activate", "--order-type", Self.type], store: fixture.storePath)
        #expect(activated.status == 0 && activated.stdout.hasPrefix("activated \(Self.type)"), "\(activated.stderr)")

        // Both instances now sign with the new certificate (valid a year, the old one until 2055).
        let verifier = try TestOrderArchive.verifier()
        for server in [a, b] {
            try author(server)
            let connection = try RawConnection(port: server.port)
            defer { connection.close() }
            let archive = try #require(
                connection.exchange(
                    "GET", ServiceFixture.path("v1", "orders", Self.type, "ORDER-1"),
                    headers: ["Authorization": "AppleOrder \(deviceToken)"])?.body)
            let leafNotAfter = try #require(verifier.verify(Data(archive)).leafNotAfter)
            #expect(abs(leafNotAfter.timeIntervalSinceNow - 365 * 86_400) < 2 * 86_400, "signed with the new certificate")
        }
        #expect(answers.allSatisfy { $0 == 200 }, "authoring never failed through the rotation: \(answers)")
        #expect(answers.count > 8)
    }
}
