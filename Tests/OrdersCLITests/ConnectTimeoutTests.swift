import Foundation
import Glibc
import TestArchiveTable
import Testing

/// A PostgreSQL server that never answers: the URL's `connect_timeout` bounds the wait, and the
/// error says which timeout expired. No PostgreSQL needed: a listening socket whose accept queue
/// is full drops every new connection's SYN, so a connect neither succeeds nor fails. Through the
/// real binary, whose threads nothing else in the test process shares.
@Suite("connect_timeout: a server that never answers")
struct ConnectTimeoutTests {
    @Test("orders list waits connect_timeout, not 10 s, and says connect_timeout (exit 2)")
    func silentServer() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let url = "postgres://wallet@127.0.0.1:\(silent.port)/orders?sslmode=disable&connect_timeout=1&pool_timeout=2"
        // Timed inside the child's shell: beside the whole suite, this task itself waited tens of
        // seconds to be resumed after the child had ended.
        let timed = #"s=$(date +%s%N); "$0" "$@"; r=$?; echo "elapsed=$(( ($(date +%s%N) - s) / 1000000 ))" >&2; exit $r"#
        let result = try await OrdersProcess.run(
            executable: URL(fileURLWithPath: "/bin/bash"),
            ["-c", timed, OrdersProcess.binary.path, "list", "--database", url], in: FileManager.default.temporaryDirectory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("no answer from the server within 1 s (connect_timeout)"), "\(result.stderr)")
        let elapsed = result.stderr.firstMatch(of: #/elapsed=(\d+)/#).flatMap { Int($0.1) } ?? -1
        #expect(elapsed >= 900 && elapsed < 8_000, "waited \(elapsed) ms")
    }
}

/// A TCP listener on loopback that accepts nothing, its queue filled by connections of its own.
final class SilentListener: Sendable {
    let port: Int
    private let descriptors: [Int32]

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = try Self.bindToLoopback(listener)
        guard listen(listener, 0) == 0 else { throw POSIXError(.EADDRINUSE) }
        port = Int(UInt16(bigEndian: address.sin_port))
        // Backlog 0 holds one connection; more, never accepted, leave no room.
        var fillers: [Int32] = []
        for _ in 0..<3 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            fillers.append(client)
        }
        descriptors = [listener] + fillers
    }

    func close() {
        for descriptor in descriptors { _ = Glibc.close(descriptor) }
    }

    /// Binds `descriptor` to 127.0.0.1 on a port the system picks; the address bound.
    static func bindToLoopback(_ descriptor: Int32) throws -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return address
    }
}
