import Foundation
import Hummingbird
import HummingbirdTesting
import OrdersService
import Testing

/// A request must arrive whole within `--request-timeout`, head and body, and not slower than the
/// minimum rate: clients that trickle a body hold no connection past it, whatever the idle
/// timeout.
@Suite("orders serve: the request deadline and minimum rate", .serialized)
struct RequestDeadlineTests {
    @Test("bodies and heads sent a byte at a time are closed at --request-timeout; others are answered meanwhile")
    func trickling() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let key = try await fixture.wallet.createAPIKey(name: "slow", orderTypes: [ServiceFixture.shopType])
        let server = try await ServeProcess.start(
            store: fixture.storePath, arguments: ["--request-timeout", "3", "--idle-timeout", "600"],
            environment: ["ORDERS_LOG_LEVEL": "error"])
        defer { _ = server.stop() }
        let port = server.port
        // 100 archives announced at 1,000 bytes and sent a byte at a time; 100 log posts likewise
        // from their own addresses (the device log reads its body); 100 heads a byte at a time.
        let bodies = try (0..<100).map { _ in try RawConnection(port: port) }
        for connection in bodies {
            connection.send(
                "PUT /api/v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key.token)\r\n"
                    + "Content-Type: application/vnd.apple.finance.order\r\nContent-Length: 1000\r\n\r\nP")
        }
        let logs = try (0..<100).map { try RawConnection(port: port, from: "127.0.10.\($0 + 1)") }
        for connection in logs {
            connection.send("POST /v1/log HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n[")
        }
        let heads = try (0..<100).map { _ in try RawConnection(port: port) }
        for connection in heads { connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ") }

        let clock = ContinuousClock()
        let start = clock.now
        var answered = 0
        var rounds = 0
        // Six seconds: twice the deadline, a byte every half second on each slow connection.
        while clock.now - start < .seconds(6) {
            rounds += 1
            for connection in bodies + logs + heads { connection.send("a") }
            let client = try RawConnection(port: port)
            client.send(ServiceUnderLoadTests.health)
            if await client.responseStatus() == 200 { answered += 1 }
            try await Task.sleep(for: .milliseconds(500))
        }
        #expect(answered == rounds)
        for (name, group) in [("bodies", bodies), ("log bodies", logs), ("heads", heads)] {
            var closed = 0
            for connection in group where await connection.isClosedByServer(within: 1) { closed += 1 }
            #expect(closed == group.count, "\(name): \(closed) of \(group.count) closed")
        }
        #expect(!server.standardError.contains(" error "), "\(server.standardError.suffix(2000))")
    }

    /// Against `orders serve` with its shipped limits (1,024 bytes a second over 10-second
    /// windows), in a process of its own: in the test process, a server's event loop shares two
    /// cores with ~600 tests, and a window it is left unscheduled in looks exactly like a slow
    /// client (or hides one) — this test failed that way beside the PostgreSQL suites.
    @Test("a request slower than the minimum rate over a window is closed; one above it is read whole")
    func minimumRate() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let server = try await ServeProcess.start(store: fixture.storePath, environment: ["ORDERS_LOG_LEVEL": "error"])
        defer { _ = server.stop() }
        let port = server.port
        // Under a sanitizer (Scripts/sanitize.sh sets ORDERS_SANITIZER) the server reads 5–15×
        // slower: only the slow request's closing is asserted there.
        let sanitized = ProcessInfo.processInfo.environment["ORDERS_SANITIZER"] != nil
        // About 59 KB (under the device log's 64 KiB).
        let entries = Array(repeating: "\"" + String(repeating: "y", count: 900) + "\"", count: 65)
        let body = Array(#"{"logs":[\#(entries.joined(separator: ","))]}"#.utf8)
        let slow = try RawConnection(port: port)
        let fast = try RawConnection(port: port)
        for connection in [slow, fast] {
            connection.send("POST /v1/log HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n\r\n")
        }
        // 100 bytes a second, 10 times under the floor; 20,000 bytes a second, 20 times above it,
        // so that a busy machine pacing late keeps each on its side. Paced on a thread of its own:
        // a test task waits its turn on Swift concurrency's two threads behind the rest of the suite.
        await RawConnection.offThread {
            let clock = ContinuousClock()
            var sentSlow = 0
            var sentFast = 0
            let start = clock.now
            while sentFast < body.count {
                let fastEnd = min(body.count, sentFast + 2000)
                fast.send(Array(body[sentFast..<fastEnd]))
                sentFast = fastEnd
                if sentSlow < body.count {
                    slow.send(Array(body[sentSlow..<min(body.count, sentSlow + 10)]))
                    sentSlow += 10
                }
                let next = start + .milliseconds(100) * (sentFast / 2000)
                let wait = next - clock.now
                if wait > .zero {
                    Thread.sleep(
                        forTimeInterval: Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
                }
            }
        }
        let answer = await RawConnection.offThread { fast.responseStatus() }
        if !sanitized { #expect(answer == 200, "a request above the floor is read whole") }
        // The slow one's first window ends 10 s after its head; 3 s of it went by above.
        #expect(await RawConnection.offThread { slow.isClosedByServer(within: 15) }, "a request under the floor is closed")
        #expect(!server.standardError.contains(" error "), "\(server.standardError.suffix(2000))")
    }
}
