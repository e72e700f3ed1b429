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

    @Test("a request slower than the minimum rate over a window is closed; one above it is read whole")
    func minimumRate() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        var limits = ServiceLimits()
        // Under a sanitizer (Scripts/sanitize.sh sets ORDERS_SANITIZER) the in-process server reads
        // 5–15× slower: a lower floor keeps the fast request well above it, the slow one below.
        let sanitized = ProcessInfo.processInfo.environment["ORDERS_SANITIZER"] != nil
        limits.minimumRequestRate = sanitized ? 400 : 2000
        // Two-second windows: a test task the machine leaves unscheduled for a second (two cores,
        // the whole suite running beside it) must not look like a slow client.
        limits.bodyRateWindow = .seconds(2)
        limits.deviceLogRate = Rate(burst: 100, perSecond: 100)
        let service = fixture.service(limits: limits)
        let app = service.application(host: "127.0.0.1", port: 0)
        try await app.testLive { client in
            let port = client.port!
            // About 59 KB (under the device log's 64 KiB): the fast request spans a window boundary.
            let entries = Array(repeating: "\"" + String(repeating: "y", count: 900) + "\"", count: 65)
            let body = Array(#"{"logs":[\#(entries.joined(separator: ","))]}"#.utf8)
            // Two tries for the fast request: beside the whole suite on two cores, the in-process
            // server's event loop can stall for a window once (as under a sanitizer, where only the
            // slow request's closing is asserted); a server that closes fast requests fails both.
            var answer: Int?
            for _ in 0..<2 where answer != 200 {
                answer = try await exchange()
            }
            if !sanitized { #expect(answer == 200, "a request above the floor is read whole") }

            @Sendable func exchange() async throws -> Int? {
                let slow = try RawConnection(port: port)
                let fast = try RawConnection(port: port)
                for connection in [slow, fast] {
                    connection.send("POST /v1/log HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n\r\n")
                }
                // 100 bytes a second, 20 times under the floor of 2,000 (4 times under 400); 20,000 bytes
                // a second, 10 (50) times above it, so that a busy machine pacing late keeps each on
                // its side.
                // Paced on a thread of its own: a test task waits its turn on Swift concurrency's two
                // threads behind whatever the rest of the suite runs there, and a sender left
                // unscheduled for a window looks exactly like a slow client.
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
                // Under a sanitizer beside the whole suite, the in-process server's own event loop can
                // stall for a window, and the guard (which counts the bytes it read) then closes the
                // fast request too: only the closing of the slow one is asserted there.
                // Read off this task's thread: a blocking read here would hold one of the threads the
                // in-process server needs to answer (two cores: two threads).
                let answer = await RawConnection.offThread { fast.responseStatus() }
                #expect(await RawConnection.offThread { slow.isClosedByServer(within: 5) }, "a request under the floor is closed")
                return answer
            }
        }
    }
}
