import Foundation
import OrderStorage
import Synchronization
import TestArchiveTable
import Testing
import WalletOrders

/// The adversarial scenarios that found issue 22's defects, through the built `orders serve`: a
/// device-log flood, a log nobody reads, forged identifiers, a registration flood, and the
/// figures docs/hardening.md quotes (printed).
@Suite("orders serve under attack", .serialized)
struct ServiceAbuseTests {
    static let sanitized = ProcessInfo.processInfo.environment["ORDERS_SANITIZER"] != nil

    /// `count` requests on one keep-alive connection from `source`; the statuses.
    static func burst(
        _ count: Int, port: Int, from source: String? = nil, _ request: (RawConnection) -> RawConnection.Answer?
    ) throws -> [Int] {
        var connection = try RawConnection(port: port, from: source)
        var statuses: [Int] = []
        for _ in 0..<count {
            if let answer = request(connection) {
                statuses.append(answer.status)
                if answer.headers["connection"] == "close" { connection = try RawConnection(port: port, from: source) }
            } else {
                statuses.append(0)
                connection = try RawConnection(port: port, from: source)
            }
        }
        return statuses
    }

    static func logBody(entries: Int, length: Int) -> [UInt8] {
        Array(#"{"logs":["#.utf8)
            + Array(
                Array(repeating: "\"" + String(repeating: "x", count: length) + "\"", count: entries).joined(separator: ",").utf8)
            + Array("]}".utf8)
    }

    @Test("a device-log flood writes at most one bounded line per request, at a bounded rate, and counts the rest")
    func logFlood() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let server = try await ServeProcess.start(store: fixture.storePath)
        defer { _ = server.stop() }
        let start = Date()
        // 100 empty strings (the 400-byte amplifier), then 60 KB bodies, from one address.
        let empty = Self.logBody(entries: 100, length: 0)
        let large = Self.logBody(entries: 100, length: 600)
        var statuses = try Self.burst(300, port: server.port) { $0.exchange("POST", "/v1/log", body: empty) }
        statuses += try Self.burst(100, port: server.port) { $0.exchange("POST", "/v1/log", body: large) }
        // Then 20 other addresses, 10 each: each address's burst, all of them bounded by the total.
        for client in 2...21 {
            statuses += try Self.burst(10, port: server.port, from: "127.0.0.\(client)") {
                $0.exchange("POST", "/v1/log", body: empty)
            }
        }
        let elapsed = Date().timeIntervalSince(start)
        #expect(statuses == Array(repeating: 200, count: 600), "Wallet does not retry: every log post is 200")

        let metrics = try RawConnection(port: server.port)
        let limited = Int(metrics.metric(#"orders_rate_limited_total{route="/v1/log"}"#))
        let lines = server.standardError.split(separator: "\n").filter { $0.contains("device log") }
        // Never more than one line a request; never more than the rates allow: 5 at once from the
        // first address, then 0.1/s, and 50 at once for everybody, then 5/s.
        #expect(lines.count + limited == 600, "\(lines.count) written + \(limited) limited")
        #expect(lines.count <= 50 + Int((elapsed * 5).rounded(.up)), "\(lines.count) lines in \(elapsed) s")
        #expect(lines.count >= 5, "the first address's burst is written")
        let longest = lines.map(\.utf8.count).max() ?? 0
        #expect(longest <= 2048 + 300, "a device-log line of \(longest) bytes")
        let written = server.standardError.utf8.count
        print(
            "log flood: 600 posts (400 from one address, 200 from 20 others) in \(String(format: "%.1f", elapsed)) s: "
                + "\(lines.count) lines written, \(limited) limited, \(written) bytes of log in all "
                + "(\(written / 600) bytes per request), longest line \(longest) bytes")
    }

    /// The durations of `count` device GETs of the stored order, on one keep-alive connection.
    static func deviceLatencies(port: Int, count: Int) throws -> [Duration] {
        let connection = try RawConnection(port: port, from: "127.0.20.1")
        let path = ServiceFixture.path("v1", "orders", ServiceFixture.shopType, "ORDER-1")
        let auth = ["Authorization": "AppleOrder \(ServiceFixture.token)"]
        let clock = ContinuousClock()
        var times: [Duration] = []
        for _ in 0..<count {
            let start = clock.now
            guard connection.exchange("GET", path, headers: auth)?.status == 200 else { continue }
            times.append(clock.now - start)
        }
        return times
    }

    /// The 50th and 99th percentiles.
    static func percentiles(_ times: [Duration]) -> (p50: Duration, p99: Duration) {
        let sorted = times.sorted()
        return (sorted[sorted.count / 2], sorted[sorted.count * 99 / 100])
    }

    @Test("device GETs during a device-log flood: the median within 5× of idle (or 20 ms)")
    func latencyUnderLogFlood() async throws {
        let fixture = try await ServiceFixture.make()
        let server = try await ServeProcess.start(store: fixture.storePath)
        defer { _ = server.stop() }
        let port = server.port
        _ = try Self.deviceLatencies(port: port, count: 200)  // warm-up: the archive cache, the connection
        // The flood: 60 KB log bodies, back to back, from 64 addresses on one connection each,
        // while `flooding` says so. Idle and flooded samples alternate, five rounds each, so that
        // the load of other tests sharing the machine falls on both alike.
        let done = Atomic<Bool>(false)
        let flooding = Atomic<Bool>(false)
        let posts = Atomic<Int>(0)
        let body = Self.logBody(entries: 100, length: 600)
        let flood = Thread {
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                var client = 0
                while !done.load(ordering: .relaxed) {
                    guard flooding.load(ordering: .relaxed) else {
                        Thread.sleep(forTimeInterval: 0.001)
                        continue
                    }
                    client += 1
                    guard let connection = try? RawConnection(port: port, from: "127.0.\(30 + worker).\(client % 64 + 1)")
                    else { continue }
                    for _ in 0..<20 where flooding.load(ordering: .relaxed) {
                        if connection.exchange("POST", "/v1/log", body: body)?.status == 200 { posts.add(1, ordering: .relaxed) }
                    }
                }
            }
        }
        flood.start()
        defer { done.store(true, ordering: .relaxed) }
        var idleTimes: [Duration] = []
        var floodedTimes: [Duration] = []
        for _ in 0..<5 {
            idleTimes += try Self.deviceLatencies(port: port, count: 200)
            let before = posts.load(ordering: .relaxed)
            flooding.store(true, ordering: .relaxed)
            while posts.load(ordering: .relaxed) < before + 20 { try await Task.sleep(for: .milliseconds(5)) }
            floodedTimes += try Self.deviceLatencies(port: port, count: 200)
            flooding.store(false, ordering: .relaxed)
        }
        let (idle, flooded) = (Self.percentiles(idleTimes), Self.percentiles(floodedTimes))
        let sent = posts.load(ordering: .relaxed)
        print(
            "device GET p50/p99: idle \(idle.p50)/\(idle.p99), during a log flood (\(sent) posts of 60 KB) "
                + "\(flooded.p50)/\(flooded.p99); log \(server.standardError.utf8.count) bytes")
        // The median is held to 5× idle here (10× under a sanitizer, where the flood's parsing is
        // instrumented and the idle figure is not), or 20 ms when idle is so fast that 5× is less:
        // the flood's two senders and the server parsing 60 KB bodies fill both cores, so a debug
        // build beside the whole suite measured 3.3× and once 5.4× (1.4 ms idle, 7.7 ms flooded:
        // a few scheduler time slices) with nothing wrong; a log write that blocked requests
        // would be hundreds of times slower. Benchmarks/run.sh logflood measures both on a
        // release build (docs/hardening.md).
        let medianBound = max(idle.p50 * (Self.sanitized ? 10 : 5), .milliseconds(20))
        #expect(flooded.p50 < medianBound, "p50 \(flooded.p50) against \(idle.p50) idle")
        // p99 of 1,000 samples: a scheduling hiccup beside the whole suite reached 101 ms once
        // (issue 40's CI-like run) against a 100 ms bound; a log write that blocked requests holds
        // them for seconds, far past 250 ms.
        #expect(flooded.p99 < .milliseconds(Self.sanitized ? 500 : 250), "p99 \(flooded.p99)")
    }

    @Test("a log nobody reads never stops the service: lines are dropped and counted, SIGTERM still exits")
    func unreadLog() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let server = try await ServeProcess.start(
            store: fixture.storePath, arguments: ["--shutdown-timeout", "2"], standardErrorUnread: true)
        let port = server.port
        // Request lines (about 130 bytes each) until the pipe (64 KiB) and the buffer (1 MiB) are
        // full and lines are being dropped, and then some: four clients at once.
        let dropped = Atomic<Bool>(false)
        let answered = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            guard let connection = try? RawConnection(port: port) else { return }
            for round in 0..<20_000 {
                guard connection.exchange("GET", "/health")?.status == 200 else { return }
                answered.add(1, ordering: .relaxed)
                if round % 500 == 0, connection.metric("orders_log_dropped_lines_total") > 0 {
                    dropped.store(true, ordering: .relaxed)
                }
                if dropped.load(ordering: .relaxed), round > 200 { return }
            }
        }
        let wasDropped = dropped.load(ordering: .relaxed)
        let requests = answered.load(ordering: .relaxed)
        #expect(wasDropped, "no line was dropped after \(requests) requests")
        // Still answering, at once, while nothing drains the log (a log post over its rate is
        // answered `Connection: close`, so it gets a connection of its own).
        let clock = ContinuousClock()
        var slowest = Duration.zero
        let client = try RawConnection(port: port)
        for _ in 0..<100 {
            let began = clock.now
            #expect(client.exchange("GET", "/health")?.status == 200)
            let poster = try RawConnection(port: port)
            #expect(poster.exchange("POST", "/v1/log", body: Self.logBody(entries: 100, length: 600))?.status == 200)
            slowest = max(slowest, clock.now - began)
        }
        #expect(slowest < (Self.sanitized ? .seconds(5) : .milliseconds(500)), "slowest pair \(slowest)")
        // A request still arriving when SIGTERM comes: cut after --shutdown-timeout (2 s); the
        // process is gone within 2 + 3 + 1 s, whatever the log.
        // Pipelined behind a GET in one write: once the GET is answered, the server has read the
        // POST's head too, and the POST is in flight.
        let slow = try RawConnection(port: port, from: "127.0.9.1")
        slow.send(
            "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                + "POST /v1/log HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n[")
        await #expect(slow.response()?.status == 200)
        let stopping = clock.now
        let status = await server.stop(patience: 20)
        let took = clock.now - stopping
        #expect(status == 0, "exit status \(status)")
        #expect(took < .seconds(7), "stopped in \(took)")
        #expect(took >= .seconds(2), "the request in flight was given --shutdown-timeout (stopped in \(took))")
        print("unread log: \(requests) requests until lines were dropped; slowest answer after: \(slowest); stopped in \(took)")
    }

    /// What must never reach a log line raw: each would end the line, forge another, drive the
    /// terminal, or reorder what it shows.
    static let hostile = [
        "a\nb", "a\r\n2026-01-01T00:00:00+0000 critical orders.serve: [forged] admin logged in", "\u{1B}[2J\u{1B}[31mred",
        "del\u{7F}", "next\u{85}line", "line\u{2028}separator", "para\u{2029}graph", "abc\u{202E}gpj.exe", "iso\u{2066}late",
        "mark\u{200F}", "\u{61C}arabic", "tab\there", #"back\u{A}slash"#, "nul\u{0}byte",
    ]

    @Test("values from requests reach the log escaped, through every route that logs")
    func forgedIdentifiers() async throws {
        let fixture = try await ServiceFixture.make()
        let key = try await fixture.wallet.createAPIKey(name: "forge", orderTypes: [ServiceFixture.shopType])
        // trace: every line any library writes, request paths included.
        let server = try await ServeProcess.start(store: fixture.storePath, environment: ["ORDERS_LOG_LEVEL": "trace"])
        defer { _ = server.stop() }
        let shop = ServiceFixture.shopType
        let auth = ["Authorization": "AppleOrder \(ServiceFixture.token)"]
        for (index, value) in Self.hostile.enumerated() {
            let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
            // Its own address each time, so that no log post is rate-limited away.
            let connection = try RawConnection(port: server.port, from: "127.0.1.\(index + 1)")
            let json = String(decoding: try JSONSerialization.data(withJSONObject: ["logs": [value]]), as: UTF8.self)
            #expect(connection.exchange("POST", "/v1/log", body: Array(json.utf8))?.status == 200)
            let pushToken = Array(#"{"pushToken":"\#(ServiceFixture.pushToken)"}"#.utf8)
            _ = connection.exchange(
                "POST", "/v1/devices/\(encoded)/registrations/\(shop)/ORDER-1", headers: auth, body: pushToken)
            _ = connection.exchange("GET", "/v1/orders/\(shop)/\(encoded)", headers: auth)
            _ = connection.exchange("GET", "/v1/devices/d/registrations/\(shop)?ordersModifiedSince=\(encoded)")
            _ = connection.exchange("GET", "/v2/\(encoded)")
            _ = connection.exchange("GET", "/api/v1/orders?cursor=\(encoded)", headers: ["Authorization": "Bearer \(key.token)"])
            _ = connection.exchange(
                "GET", "/api/v1/orders/\(shop)/\(encoded)?updatedDate=\(encoded)",
                headers: ["Authorization": "Bearer \(key.token)"])
        }
        // A would-push line names the device: register one, then replace the order.
        let device = try RawConnection(port: server.port, from: "127.0.2.1")
        #expect(
            device.exchange(
                "POST", "/v1/devices/phone/registrations/\(shop)/ORDER-1", headers: auth,
                body: Array(#"{"pushToken":"\#(ServiceFixture.pushToken)"}"#.utf8))?.status == 201)
        #expect(
            device.exchange(
                "PUT", "/api/v1/orders",
                headers: ["Authorization": "Bearer \(key.token)", "Content-Type": "application/vnd.apple.finance.order"],
                body: Array(fixture.shopV2))?.status == 200)
        for _ in 0..<500 where !server.standardError.contains("would push") { try await Task.sleep(for: .milliseconds(20)) }

        let log = Array(server.standardError.utf8)
        #expect(server.standardError.contains("would push"))
        Self.expectEscaped(log)
        print("forged identifiers: \(log.count) bytes of trace-level log, \(log.split(separator: 0x0A).count) lines, none forged")
    }

    /// No raw control, separator or bidirectional character anywhere in `log`, and every line is
    /// one the handler wrote (a timestamp first).
    static func expectEscaped(_ log: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let text = String(decoding: log, as: UTF8.self)
        for scalar in text.unicodeScalars where scalar != "\n" {
            #expect(
                !LogText.needsEscaping(scalar), "raw U+\(String(scalar.value, radix: 16)) in the log",
                sourceLocation: sourceLocation)
        }
        for line in text.split(separator: "\n") {
            let isHandlerLine = line.prefix(4).allSatisfy(\.isNumber) && line.dropFirst(4).first == "-"
            #expect(
                isHandlerLine || line.hasPrefix("orders: "), "a line the handler did not write: \(line.prefix(200))",
                sourceLocation: sourceLocation)
        }
    }

    @Test("a registration flood is refused at the door: identifiers, tokens, caps and rate; the store stays small")
    func registrationFlood() async throws {
        let fixture = try await ServiceFixture.make()
        let server = try await ServeProcess.start(
            store: fixture.storePath, arguments: ["--max-devices-per-order", "20", "--max-orders-per-device", "2"])
        defer { _ = server.stop() }
        let port = server.port
        let pid = server.process.processIdentifier
        let shop = ServiceFixture.shopType
        let auth = ["Authorization": "AppleOrder \(ServiceFixture.token)"]
        let pushToken = Array(#"{"pushToken":"\#(ServiceFixture.pushToken)"}"#.utf8)
        let storeSize = { (try? FileManager.default.attributesOfItem(atPath: fixture.storePath)[.size] as? Int) ?? 0 }
        let walSize = { (try? FileManager.default.attributesOfItem(atPath: fixture.storePath + "-wal")[.size] as? Int) ?? 0 }
        #expect(try RawConnection(port: port).exchange("GET", "/health")?.status == 200)
        let baseline = try #require(ProcessMemory.resident(of: pid))
        let sizeBefore = storeSize() + walSize()

        // 60,000-byte device identifiers from 50 addresses, 20 each: refused before the store.
        let long = String(repeating: "d", count: 60_000)
        var refused: [Int] = []
        for client in 1...50 {
            refused += try Self.burst(20, port: port, from: "127.0.3.\(client)") {
                $0.exchange("POST", "/v1/devices/\(long)/registrations/\(shop)/ORDER-1", headers: auth, body: pushToken)
            }
        }
        #expect(Set(refused) == [400], "\(Set(refused))")
        // Push tokens APNs would refuse: 400.
        let badToken = try Self.burst(10, port: port, from: "127.0.4.1") {
            $0.exchange(
                "POST", "/v1/devices/phone/registrations/\(shop)/ORDER-1", headers: auth,
                body: Array(#"{"pushToken":"\#(String(repeating: "z", count: 64))"}"#.utf8))
        }
        #expect(Set(badToken) == [400])

        // 100 devices from 100 addresses for one order: 20 (the cap) are registered, the rest 409.
        var devices: [Int] = []
        for client in 1...100 {
            devices += try Self.burst(1, port: port, from: "127.0.5.\(client)") {
                $0.exchange(
                    "POST", "/v1/devices/device-\(client)/registrations/\(shop)/ORDER-1", headers: auth, body: pushToken)
            }
        }
        #expect(devices.filter { $0 == 201 }.count == 20 && devices.filter { $0 == 409 }.count == 80, "\(devices)")
        // One device for three orders: the third is past --max-orders-per-device 2.
        let orders =
            try Self.burst(1, port: port, from: "127.0.6.1") {
                $0.exchange(
                    "POST", ServiceFixture.path("v1", "devices", "device-1", "registrations", shop, ServiceFixture.oddIdentifier),
                    headers: auth, body: pushToken)
            }
            + Self.burst(1, port: port, from: "127.0.6.1") {
                $0.exchange(
                    "POST", "/v1/devices/device-1/registrations/\(ServiceFixture.otherType)/OTHER-1", headers: auth,
                    body: pushToken)
            }
        #expect(orders == [201, 409], "\(orders)")
        // Re-registering an existing device is never refused by the caps (its token is replaced).
        let again = try Self.burst(1, port: port, from: "127.0.6.2") {
            $0.exchange("POST", "/v1/devices/device-2/registrations/\(shop)/ORDER-1", headers: auth, body: pushToken)
        }
        #expect(again == [200])

        // One address registering fast: 60 at once, then one a second; the rest 429 with Retry-After.
        let fast = try RawConnection(port: port, from: "127.0.7.1")
        var limited: RawConnection.Answer?
        var accepted = 0
        for _ in 0..<80 {
            let answer = fast.exchange("DELETE", "/v1/devices/device-3/registrations/\(shop)/ORDER-1", headers: auth)
            if answer?.status == 429 {
                limited = answer
                break
            }
            accepted += 1
        }
        #expect(accepted >= 60 && accepted < 70, "\(accepted) accepted before a 429")
        #expect(limited?.headers["retry-after"] == "1")
        #expect(limited?.text.contains(#""code":"request.rateLimited""#) == true)

        let sizeAfter = storeSize() + walSize()
        let peak = try #require(ProcessMemory.peak(of: pid))
        print(
            "registration flood: 1,000 × 60,000-byte ids, 100 devices for one order (cap 20): store \(sizeBefore) → \(sizeAfter) bytes, "
                + "RSS \(baseline) KiB → peak \(peak) KiB")
        #expect(sizeAfter - sizeBefore < 1 << 20, "the store grew by \(sizeAfter - sizeBefore) bytes")
        if !Self.sanitized { #expect(peak - baseline < 64 << 10, "peak \(peak) KiB over \(baseline) KiB") }
    }

    @Test("malformed chunked bodies are the client's 400, logged at debug only; the connection is closed")
    func chunkedGarbage() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let server = try await ServeProcess.start(store: fixture.storePath)
        defer { _ = server.stop() }
        for (name, request) in [
            ("a chunk size that is not hex", "Transfer-Encoding: chunked\r\n\r\nzz\r\n[]\r\n0\r\n\r\n"),
            ("a chunk longer than its size", "Transfer-Encoding: chunked\r\n\r\n3\r\n[\"a\"]\r\n0\r\n\r\n"),
            ("a transfer coding that is not chunked", "Transfer-Encoding: xchunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n"),
        ] {
            let connection = try RawConnection(port: server.port)
            connection.send("POST /v1/log HTTP/1.1\r\nHost: 127.0.0.1\r\n" + request)
            let answer = await connection.response()
            let body = String(decoding: answer?.body ?? [], as: UTF8.self)
            #expect(answer?.status == 400, "\(name): \(answer?.status ?? 0)")
            #expect(body.contains(#""code":"request.malformed""#), "\(name)")
            #expect(await connection.isReleasedByServer(within: 5), "\(name): the connection stays open")
        }
        let log = server.standardError
        #expect(!log.contains(" error ") && !log.contains("internal"), "\(log)")
    }
}
