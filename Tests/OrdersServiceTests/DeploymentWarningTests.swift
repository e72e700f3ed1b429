import Foundation
import TestArchiveTable
import Testing

/// What `orders serve` says once about a setup that is not ready for production
/// (docs/deployment.md#what-orders-serve-warns-about), and that it says nothing when the setup is.
@Suite("orders serve: warnings about what production lacks")
struct DeploymentWarningTests {
    static let noPush = "pushes will not be sent: no APNs credentials"
    static let plainHTTP = "plain HTTP on 0.0.0.0, which is not a loopback address"
    static let forwarded = "X-Forwarded-For and X-Forwarded-Proto from 127.0.0.1 are ignored: no --trusted-proxy"

    @Test(
        "no APNs credentials and forwarded headers with no trusted proxy: each said once, at start and at the first such request")
    func missingCredentialsAndProxy() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let server = try await ServeProcess.start(store: fixture.storePath)
        defer { _ = server.stop() }
        try await Self.waitFor(Self.noPush, in: server)
        #expect(!server.standardError.contains(Self.forwarded))
        let connection = try RawConnection(port: server.port)
        defer { connection.close() }
        #expect(connection.exchange("GET", "/health")?.status == 200)
        #expect(!server.standardError.contains(Self.forwarded), "plain requests say nothing")
        for headers in [["X-Forwarded-For": "203.0.113.7"], ["X-Forwarded-Proto": "https"], ["X-Forwarded-For": "198.51.100.1"]] {
            #expect(connection.exchange("GET", "/health", headers: headers)?.status == 200)
        }
        try await Self.waitFor(Self.forwarded, in: server)
        #expect(await server.stop() == 0)
        let log = server.standardError
        #expect(Self.count(Self.noPush, in: log) == 1, "\(log.suffix(2000))")
        #expect(Self.count(Self.forwarded, in: log) == 1, "\(log.suffix(2000))")
        #expect(!log.contains(Self.plainHTTP))
        #expect(!log.contains("203.0.113.7"), "the forwarded address is not believed, nor repeated")
    }

    @Test("plain HTTP on an address other than loopback is said once; APNs credentials and a trusted proxy silence the others")
    func plainHTTPOnAllAddresses() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let tls = try await TestTLS.make()
        let server = try await ServeProcess.start(
            store: fixture.storePath,
            arguments: [
                "--host", "0.0.0.0", "--trusted-proxy", "127.0.0.1", "--push-key-p8", tls.p8.path, "--key-id", "ABC123DEFG",
                "--team-id", "DEF123GHIJ", "--apns", "sandbox",
            ])
        defer { _ = server.stop() }
        try await Self.waitFor(Self.plainHTTP, in: server)
        let connection = try RawConnection(port: server.port)
        defer { connection.close() }
        #expect(connection.exchange("GET", "/health", headers: ["X-Forwarded-For": "203.0.113.7"])?.status == 200)
        #expect(await server.stop() == 0)
        let log = server.standardError
        #expect(Self.count(Self.plainHTTP, in: log) == 1, "\(log.suffix(2000))")
        #expect(!log.contains(Self.noPush))
        #expect(!log.contains("X-Forwarded-For and X-Forwarded-Proto"))
    }

    @Test("the loopback addresses: 127.0.0.1, ::1 and localhost say nothing about plain HTTP")
    func loopbackIsQuiet() async throws {
        for host in ["127.0.0.1", "::1", "localhost"] {
            let fixture = try await ServiceFixture.make(seed: false)
            let server = try await ServeProcess.start(store: fixture.storePath, arguments: ["--host", host])
            try await Self.waitFor(Self.noPush, in: server)
            #expect(await server.stop() == 0)
            #expect(!server.standardError.contains("plain HTTP"), "\(host): \(server.standardError.suffix(1000))")
        }
    }

    static func count(_ text: String, in log: String) -> Int {
        log.components(separatedBy: text).count - 1
    }

    /// Waits until the server's log holds `text` (lines reach the file through a background
    /// writer), for up to 30 s.
    static func waitFor(_ text: String, in server: ServeProcess) async throws {
        if !(await Poll.until { server.standardError.contains(text) }) {
            Issue.record("no \(text) in: \(server.standardError.suffix(2000))")
        }
    }
}
