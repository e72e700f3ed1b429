import Foundation
import Logging
import TestArchiveTable
import Testing
import WalletOrders

@testable import OrdersService

/// An Order Type ID certificate lasts a year (issue 53, item 3): `orders serve` warns about one
/// that expires within 30 days at start and every day after, exports each certificate's expiry
/// as a metric, and the console shows the days left.
@Suite("Signing certificates' expiry, watched")
struct SigningExpiryTests {
    static let warning = "the signing certificate of \(ServiceFixture.shopType) expires in "

    /// A store whose shop identity's certificate expires in 10 days.
    static func fixture() async throws -> ServiceFixture {
        let fixture = try await ServiceFixture.make(seed: false)
        let short = try ShortLivedCertificate.make(days: 10)
        // Added today (the fixture's own clock is a fixed day in the past, before this certificate).
        let today = try WalletStore(
            path: fixture.storePath,
            configuration: WalletConfiguration(verifier: try TestOrderArchive.verifier(), logger: Logger(label: "test")))
        _ = try await today.addSigningIdentity(
            orderTypeIdentifier: ServiceFixture.shopType,
            certificate: try Data(contentsOf: URL(fileURLWithPath: short.certificate)),
            key: .file(path: short.key, passphrase: nil), intermediates: [try TestArchiveTable.data("pki/wwdr.pem")])
        try await today.close()
        return fixture
    }

    @Test("orders serve warns at start and exports both certificates' expiry for Prometheus; a distant one is no warning")
    func servedWarningAndMetric() async throws {
        let fixture = try await Self.fixture()
        let started = Date()
        let server = try await ServeProcess.start(store: fixture.storePath)
        defer { _ = server.stop() }
        try await DeploymentWarningTests.waitFor(Self.warning, in: server)
        let connection = try RawConnection(port: server.port)
        defer { connection.close() }
        let metrics = try #require(connection.exchange("GET", "/metrics")?.text)
        func value(_ role: String) -> Double? {
            let prefix =
                #"orders_signing_certificate_expiry_timestamp_seconds{order_type="\#(ServiceFixture.shopType)",role="\#(role)"} "#
            return metrics.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Double($0.dropFirst(prefix.count)) }
        }
        let certificate = try #require(value("certificate"), "\(metrics)")
        let tenDays = started.addingTimeInterval(10 * 86_400).timeIntervalSince1970
        #expect(abs(certificate - tenDays) < 3_600, "expires in 10 days: \(certificate)")
        let intermediate = try #require(value("intermediate"))
        #expect(intermediate == 2_713_910_399, "the test WWDR CA's notAfter, 2055-12-31T23:59:59Z")
        #expect(await server.stop() == 0)
        let log = server.standardError
        #expect(DeploymentWarningTests.count(Self.warning, in: log) == 1, "once at start: \(log.suffix(2000))")
        #expect(!log.contains("the signing intermediate of"), "the intermediate has decades left")
    }

    @Test("the watch says it again each period, and says an expired certificate is an error")
    func daily() async throws {
        let fixture = try await Self.fixture()
        let log = DeliveryLog()
        let now = Date()
        let clock = TestClock(now)
        let watch = SigningExpiryWatch(
            wallet: fixture.wallet, interval: .milliseconds(20), clock: { clock.now() },
            logger: Logger(label: "test") { _ in log })
        let running = Task { try await watch.run() }
        #expect(await Poll.until { DeploymentWarningTests.count(Self.warning, in: log.text) >= 3 })
        clock.advance(days: 11)
        #expect(
            await Poll.until { log.text.contains("error: the signing certificate of \(ServiceFixture.shopType) has expired") })
        running.cancel()
        _ = try? await running.value
        #expect(log.text.split(separator: "\n").allSatisfy { $0.contains("certificate of") }, "\(log.text)")
    }

    @Test("the console's API Keys page lists each identity with its certificates' days left, the due one marked")
    func console() async throws {
        let fixture = try await Self.fixture()
        try await fixture.wallet.consent.setOwnerPassword("correct horse battery", cost: 4)
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            let cookie = try await ConsolePagesTests.signIn(client)
            let page = try await client.executeRequest(uri: "/console/keys", method: .get, headers: [.cookie: cookie], body: nil)
            let html = String(buffer: page.body)
            #expect(html.contains("<h2 id=\"identities\">Signing Identities</h2>"))
            #expect(html.contains("<td>\(ServiceFixture.shopType)</td><td>ABCDE12345</td>"))
            #expect(
                html.contains(#"<strong class="due">9 days left</strong>"#)
                    || html.contains(#"<strong class="due">10 days left</strong>"#), "\(html)")
            #expect(html.contains("Intermediate: expires 2055-12-31T23:59:59Z, <strong>"), "the distant one is not marked")
        }
    }
}
