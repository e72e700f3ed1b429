import Foundation
import Logging
import OrderStorage
import TestArchiveTable
import Testing
import WalletOrders

/// Authoring through `orders serve` killed with SIGKILL at seeded points (issue 43): no version is
/// signed and answered without being saved, none saved without its push, and a retry with the
/// same `Idempotency-Key` gets the first answer, never a second version.
@Suite("Authoring survives kill -9")
struct AuthoringCrashTests {
    static let type = ServiceFixture.shopType
    static let identifier = FullyQualifiedOrderIdentifier(orderTypeIdentifier: type, orderIdentifier: "ORDER-1")

    @Test("kill -9 at seeded points while authoring, 20 rounds: each round one version, answered once, pushed")
    func killed() async throws {
        let rounds = 20
        let folder = try TemporaryDirectory.make("authoring-kill")
        let store = folder.appendingPathComponent("orders.sqlite").path
        let configuration = WalletConfiguration(verifier: try TestOrderArchive.verifier(), logger: Logger(label: "test"))
        let wallet = try WalletStore(path: store, configuration: configuration)
        _ = try await wallet.orders.saveOrder(signedArchive: try TestOrderArchive.make())
        try await ServiceFixture.addSigningIdentity(to: wallet)
        let token = try await wallet.createAPIKey(name: "shop", orderTypes: [Self.type]).token
        let tls = try await TestTLS.make()
        let fake = FakeAPNs()
        try await fake.run(credentials: tls, requireClientCertificate: false) { apnsPort in
            let push = [
                "--push-key-p8", tls.p8.path, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ",
                "--apns-url", "https://127.0.0.1:\(apnsPort)", "--apns-ca", TestArchiveTable.testRoot.path,
                // A push a killed server had claimed is claimed again after 2 s, not the default 60.
                "--outbox-lease", "2",
                // The test order names the shop's own web service.
                "--allow-web-service-url", "\(Self.type)=https://shop.example.com/wallet/",
            ]
            let first = try await ServeProcess.start(store: store, arguments: push)
            let registered = try RawConnection(port: first.port).exchange(
                "POST", ServiceFixture.path("v1", "devices", "phone", "registrations", Self.type, "ORDER-1"),
                headers: ["Authorization": "AppleOrder \(ServiceFixture.token)", "Content-Type": "application/json"],
                body: Array(#"{"pushToken":"\#(ServiceFixture.pushToken)"}"#.utf8))
            #expect(registered?.status == 201)
            await first.stop()

            let path = ServiceFixture.path("api", "v1", "orders", Self.type, "ORDER-1", "content")
            var random = SplitMix64(state: 43)
            var (answeredBeforeKill, savedUnanswered) = (0, 0)
            for round in 0..<rounds {
                let headers = [
                    "Authorization": "Bearer \(token)", "Content-Type": "application/merge-patch+json",
                    "Idempotency-Key": "round-\(round)",
                ]
                let body = Array(#"{"orderNumber":"round-\#(round)"}"#.utf8)
                let server = try await ServeProcess.start(store: store, arguments: push)
                let port = server.port
                let sending = Task.detached {
                    try? RawConnection(port: port).exchange("PATCH", path, headers: headers, body: body)
                }
                // The kill point, drawn from the seed: before, during or after the signing and the save.
                try await Task.sleep(for: .milliseconds(Int.random(in: 0..<40, using: &random)))
                _ = await server.stop(signal: SIGKILL)
                let beforeKill = await sending.value
                if beforeKill?.status == 200 { answeredBeforeKill += 1 }

                // The server is dead: every version saved has its push, waiting or already sent.
                let versions = try await wallet.orders.history(Self.identifier).count
                #expect(versions == round + 1 || versions == round + 2, "round \(round): \(versions) versions")
                if beforeKill?.status == 200 { #expect(versions == round + 2, "round \(round): answered, so saved") }
                if beforeKill?.status != 200, versions == round + 2 { savedUnanswered += 1 }
                // One push waits per device and type, carrying every version since the last one sent;
                // with none waiting, the last push reached APNs after the latest version was saved.
                let waiting = try await wallet.waitingPushes(limit: 1_000).count
                #expect(waiting <= 1, "round \(round): \(waiting) pushes wait for one device")
                if waiting == 0, versions > 1 {
                    let saved = try #require(try await wallet.orders.history(Self.identifier).last?.addedAt)
                    let pushed = fake.received.last?.receivedAt ?? .distantPast
                    #expect(pushed >= saved, "round \(round): the latest version is announced")
                }

                // The merchant retries with the same key: one version for the round, the first answer.
                let restarted = try await ServeProcess.start(store: store, arguments: push)
                let retry = try RawConnection(port: restarted.port).exchange("PATCH", path, headers: headers, body: body)
                #expect(retry?.status == 200, "round \(round): \(retry?.text ?? "no answer")")
                if let beforeKill, beforeKill.status == 200 {
                    #expect(retry?.body == beforeKill.body, "round \(round): the first answer again")
                    #expect(retry?.headers["idempotent-replayed"] == "true")
                }
                #expect(try await wallet.orders.history(Self.identifier).count == round + 2, "round \(round): one version")
                await restarted.stop()
            }

            // A last server drains what is left: every version since the registration reached APNs.
            let last = try await ServeProcess.start(store: store, arguments: push)
            let end = ContinuousClock.now + .seconds(60)
            while try await wallet.waitingPushes(limit: 1_000).count > 0, ContinuousClock.now < end {
                try await Task.sleep(for: .milliseconds(50))
            }
            await last.stop()
            #expect(try await wallet.waitingPushes(limit: 1_000).isEmpty)
            let latest = try #require(try await wallet.orders.history(Self.identifier).last?.addedAt)
            #expect((fake.received.last?.receivedAt ?? .distantPast) >= latest, "the last version reached the device")
            #expect(fake.received.allSatisfy { $0.deviceToken == ServiceFixture.pushToken })
            print(
                "authoring kill -9, \(rounds) rounds: answered before the kill \(answeredBeforeKill), saved but killed before answering \(savedUnanswered), pushes \(fake.received.count)"
            )
        }
    }
}
