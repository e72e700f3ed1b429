import Foundation
import TestArchiveTable

/// A plain TCP connection to a server on loopback, for what an HTTP client will not do: send a
/// request a byte at a time, stop in the middle of the headers, or stream a body past every cap.
final class RawConnection: @unchecked Sendable {
    private let socket: Int32
    /// Bytes ``read(until:)`` received past what it returned.
    private var pending = Data()

    /// Connects to `127.0.0.1:port` from `source` (any address of 127.0.0.0/8, all of which are
    /// loopback on Linux: a client at another address, as the rate limits see it); reads and
    /// writes give up after `timeout` seconds.
    init(port: Int, from source: String? = nil, timeout: Int = 10) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw RawConnectionError(message: "socket: \(String(cString: strerror(errno)))") }
        let fail = { (step: String) -> RawConnectionError in
            let error = RawConnectionError(message: "\(step): \(String(cString: strerror(errno)))")
            Glibc.close(self.socket)
            return error
        }
        if let source, Self.withAddress(source, port: 0, { bind(socket, $0, $1) }) != 0 { throw fail("bind \(source)") }
        guard Self.withAddress("127.0.0.1", port: port, { connect(socket, $0, $1) }) == 0 else { throw fail("connect") }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(socket) }

    /// Leaves, as a client that is done does: both directions shut (the server reads end of
    /// stream), the descriptor freed when this object goes.
    func close() {
        Glibc.shutdown(socket, Int32(SHUT_RDWR))
    }

    /// `body` with an IPv4 socket address of `ip` and `port`.
    private static func withAddress(_ ip: String, port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(ip)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// Sends all of `text`; false once the server has closed or stopped reading.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Whether the server has closed the connection: a read returns end of stream (or a reset)
    /// within `seconds`.
    func isClosedByServer(within seconds: Int) -> Bool {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 || (count < 0 && errno == ECONNRESET) { return true }
            if count < 0 { return false }  // timed out: still open
        }
    }

    /// Whether the server has neither answered nor closed the connection yet, looked at without
    /// waiting.
    func isOpenNow() -> Bool {
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    /// Whether the server has let go of the connection entirely, not only closed its half:
    /// after its end of stream, bytes sent are answered with a reset within `seconds`. (A server
    /// that only half-closes keeps the socket, and takes the bytes, for as long as the client
    /// stays.)
    func isReleasedByServer(within seconds: Double) -> Bool {
        var limit = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let sent = Glibc.send(socket, "x", 1, Int32(MSG_NOSIGNAL))
            if sent < 0 { return errno == ECONNRESET || errno == EPIPE }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count < 0, errno == ECONNRESET { return true }
            if count == 0 { Thread.sleep(forTimeInterval: 0.1) }
        }
        return false
    }

    /// One whole response (status, headers, and a body of its `Content-Length`) on a connection
    /// that stays open, or nil when none arrives in time.
    func response() -> (status: Int, headers: [String: String], body: [UInt8])? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        func headEnd() -> Int? {
            guard received.count >= 4 else { return nil }
            for index in 0...(received.count - 4) where Array(received[index..<index + 4]) == separator { return index }
            return nil
        }
        var found = headEnd()
        while found == nil {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received += buffer[0..<count]
            found = headEnd()
        }
        guard let end = found else { return nil }
        let lines = String(decoding: received[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        var body = Array(received[(end + 4)...])
        while body.count < length {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            body += buffer[0..<count]
        }
        return (status, headers, body)
    }

    /// What arrives up to and including `marker` (a stream read piece by piece: Server-Sent
    /// Events), or nil when the connection ends or its timeout passes first. What came after the
    /// marker is kept for the next call.
    func read(until marker: String, deadline: ContinuousClock.Instant? = nil) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let pattern = Data(marker.utf8)
        while pending.range(of: pattern) == nil {
            if let deadline, ContinuousClock.now > deadline { return nil }
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            pending.append(contentsOf: buffer[0..<count])
        }
        guard let range = pending.range(of: pattern) else { return nil }
        let text = String(decoding: pending[pending.startIndex..<range.upperBound], as: UTF8.self)
        pending = Data(pending[range.upperBound...])
        return text
    }

    /// `work` on a thread of its own (``BlockingWork``): a blocking read must not hold one of the
    /// few threads the server under test needs to answer it.
    static func offThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await BlockingWork.run(work)
    }

    /// The status code of the response's first line, or nil if none arrives in time.
    func responseStatus() -> Int? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.contains(UInt8(ascii: "\n")) {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        let line = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return nil }
        return Int(parts[1])
    }
}

/// The blocking reads again, for tasks: the same names, awaited, on a thread of their own
/// (``RawConnection/offThread(_:)``). In an async function the compiler picks these, so a test
/// cannot block the threads the servers under test answer on by forgetting to move a read off them.
extension RawConnection {
    func isClosedByServer(within seconds: Int) async -> Bool {
        await Self.offThread { self.isClosedByServer(within: seconds) }
    }

    func isReleasedByServer(within seconds: Double) async -> Bool {
        await Self.offThread { self.isReleasedByServer(within: seconds) }
    }

    func response() async -> (status: Int, headers: [String: String], body: [UInt8])? {
        await Self.offThread { self.response() }
    }

    func read(until marker: String, deadline: ContinuousClock.Instant? = nil) async -> String? {
        await Self.offThread { self.read(until: marker, deadline: deadline) }
    }

    func responseStatus() async -> Int? {
        await Self.offThread { self.responseStatus() }
    }
}

struct RawConnectionError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
