import Foundation
import Synchronization
import TestArchiveTable
import Testing

/// The built `orders serve` under clients that misbehave on purpose: hundreds of slow
/// connections, and bodies far past the caps, declared or streamed. The caps and the idle timeout
/// hold, requests from well-behaved clients keep being answered, and the server's peak resident
/// memory (`VmHWM`) stays within a bound. The figures are printed (docs/hardening.md quotes them).
@Suite("orders serve under slow clients and oversized bodies", .serialized)
struct ServiceUnderLoadTests {
    static let health = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    /// The server's idle timeout in the slow-clients test, in seconds: long enough that opening
    /// the 400 slow connections beside the whole suite (over 2 s, seen twice) ends well before the
    /// first of them is reaped, so the rounds meet them open.
    static let idleTimeout = 6

    @Test("400 slow clients: others are still answered, each slow one is closed at the idle timeout, memory is bounded")
    func slowClients() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let server = try await ServeProcess.start(
            store: fixture.storePath, arguments: ["--idle-timeout", "\(Self.idleTimeout)"],
            environment: ["ORDERS_LOG_LEVEL": "error"])
        defer { _ = server.stop() }
        let pid = server.process.processIdentifier
        for _ in 0..<20 {
            let warmUp = try RawConnection(port: server.port)
            warmUp.send(Self.health)
            await #expect(warmUp.responseStatus() == 200)
        }
        let baseline = try #require(ProcessMemory.resident(of: pid))

        // Half stop in the middle of their headers; half add one byte every 250 ms (slowloris).
        let partial = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
        let silent = try (0..<200).map { _ in try RawConnection(port: server.port) }
        let trickling = try (0..<200).map { _ in try RawConnection(port: server.port) }
        for connection in silent + trickling { #expect(connection.send(partial)) }

        let clock = ContinuousClock()
        let start = clock.now
        var waits: [Duration] = []
        var rounds = 0
        var answered = 0
        var answeredWhileHeld = 0
        // At least twice the idle timeout and 16 rounds, however slow a sanitizer makes them.
        while clock.now - start < .seconds(2 * Self.idleTimeout) || rounds < 16 {
            rounds += 1
            for connection in trickling { connection.send("a") }
            let began = clock.now
            let client = try RawConnection(port: server.port)
            client.send(Self.health)
            if await client.responseStatus() == 200 {
                answered += 1
                // Answered while most slow connections are still open: not after the idle timeout
                // reaped them. (Most, not all: beside the whole suite, opening 400 connections can
                // take long enough for the idle timeout to reap the first ones already.)
                if (silent + trickling).count(where: { $0.isOpenNow() }) > 200 { answeredWhileHeld += 1 }
            }
            waits.append(clock.now - began)
            try await Task.sleep(for: .milliseconds(250))
        }
        #expect(answered == rounds)
        // A server that made well-behaved clients wait for the slow ones would answer none of
        // them before the idle timeout reaped those: here well-behaved requests are answered
        // while most of the 400 are open. (An order, not a duration: the whole test suite, PostgreSQL
        // failovers included, shares two cores with this test, and a fresh clone's run once saw
        // four rounds of sixteen stall 3–5 s, which a bound on slow rounds took for holding.)
        #expect(answeredWhileHeld >= 1, "no well-behaved request was answered before the slow ones were closed: \(waits)")
        // Scripts/sanitize.sh sets ORDERS_SANITIZER: everything runs 5–15× slower there.
        let scale = ProcessInfo.processInfo.environment["ORDERS_SANITIZER"] == nil ? 1 : 15
        let sorted = waits.sorted()
        let (median, slowest) = (sorted[sorted.count / 2], sorted[sorted.count - 1])
        // The median under 500 ms: beside the whole suite it reached 338 ms once (issue 41's run);
        // held requests would put it near the idle timeout.
        #expect(median < .milliseconds(500) * scale, "well-behaved requests waited \(sorted)")
        // Silent for twice the idle timeout: every one was closed by the server. So was every
        // trickling one: the idle timer sees a request only once its head is complete, so a
        // client that sends a byte at a time is idle to it (a header deadline, in effect).
        var closedSilent = 0
        for connection in silent where await connection.isClosedByServer(within: 1) { closedSilent += 1 }
        var closedTrickling = 0
        for connection in trickling where await connection.isClosedByServer(within: 1) { closedTrickling += 1 }
        #expect(closedSilent == silent.count)
        #expect(closedTrickling == trickling.count)
        let peak = try #require(ProcessMemory.peak(of: pid))
        print(
            "slow clients: baseline \(baseline) KiB, peak \(peak) KiB, answers: median \(median), slowest \(slowest), "
                + "\(answeredWhileHeld) of \(rounds) before the slow ones were closed")
        // AddressSanitizer keeps freed memory in quarantine (256 MiB by default): no bound there.
        if ProcessInfo.processInfo.environment["ORDERS_SANITIZER"] != "address" {
            #expect(peak - baseline < 64 << 10, "peak \(peak) KiB over a baseline of \(baseline) KiB")
        }
    }

    @Test("bodies past the caps, declared or streamed, are 413 at once and never held; memory is bounded")
    func oversizedBodies() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let key = try await fixture.wallet.createAPIKey(name: "load", orderTypes: [ServiceFixture.shopType])
        let server = try await ServeProcess.start(store: fixture.storePath, environment: ["ORDERS_LOG_LEVEL": "error"])
        defer { _ = server.stop() }
        let pid = server.process.processIdentifier
        let port = server.port
        let warmUp = try RawConnection(port: port)
        warmUp.send(Self.health)
        await #expect(warmUp.responseStatus() == 200)
        let baseline = try #require(ProcessMemory.resident(of: pid))
        let put =
            "PUT /api/v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key.token)\r\n"
            + "Content-Type: application/vnd.apple.finance.order\r\n"

        // Declared: 200 MiB in Content-Length, 16 at once: refused before any body byte is read.
        let declared = await BlockingWork.concurrently(16) { _ -> Int? in
            guard let connection = try? RawConnection(port: port) else { return nil }
            connection.send(put + "Content-Length: \(200 << 20)\r\n\r\n")
            return connection.responseStatus()
        }
        #expect(declared == Array(repeating: 413, count: 16))

        // Streamed: chunked with no length, 16 at once, 1 MiB chunks until the server answers
        // or stops reading (at most 64 MiB each).
        let chunk = Array("100000\r\n".utf8) + [UInt8](repeating: 0x50, count: 1 << 20) + Array("\r\n".utf8)
        let streamed = await BlockingWork.concurrently(16) { _ -> Int? in
            guard let connection = try? RawConnection(port: port) else { return nil }
            connection.send(put + "Transfer-Encoding: chunked\r\n\r\n")
            for _ in 0..<64 where connection.send(chunk) {}
            return connection.responseStatus()
        }
        #expect(streamed == Array(repeating: 413, count: 16))

        // A device endpoint's cap is 64 KiB.
        let log = try RawConnection(port: port)
        log.send(
            "POST /v1/log HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(1 << 20)\r\n\r\n")
        await #expect(log.responseStatus() == 413)

        let after = try RawConnection(port: port)
        after.send(Self.health)
        await #expect(after.responseStatus() == 200)
        let peak = try #require(ProcessMemory.peak(of: pid))
        print("oversized bodies: baseline \(baseline) KiB, peak \(peak) KiB")
        // A streamed body is read up to its cap (10 MiB) and no further; the 16 streams run at once
        // (each on a thread of its own), so the bound is 16 caps and what the transport holds in
        // flight for each (2 MiB: a 1 MiB chunk and its read buffer) — not the 64 MiB each sends.
        // AddressSanitizer keeps freed memory in quarantine (256 MiB by default): no bound there.
        if ProcessInfo.processInfo.environment["ORDERS_SANITIZER"] != "address" {
            #expect(peak - baseline < 16 * (12 << 10), "peak \(peak) KiB over a baseline of \(baseline) KiB")
        }
    }
}
