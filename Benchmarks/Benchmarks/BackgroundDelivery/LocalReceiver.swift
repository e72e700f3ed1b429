import Foundation
import Hummingbird
import Logging
import Synchronization

/// A webhook receiver in the benchmark's process: answers every `POST /hook/{n}` with 204 and
/// counts what it received, so a run that delivered less than it says fails.
final class LocalReceiver: Sendable {
    let port: Int
    private let received: Counter
    private let server: Task<Void, any Error>

    var count: Int { received.value }

    private init(port: Int, received: Counter, server: Task<Void, any Error>) {
        self.port = port
        self.received = received
        self.server = server
    }

    static func start() async throws -> LocalReceiver {
        let received = Counter()
        let router = Router()
        router.post("hook/{n}") { request, _ -> HTTPResponse.Status in
            _ = try await request.body.collect(upTo: 4096)
            received.increment()
            return .noContent
        }
        var logger = Logger(label: "receiver")
        logger.logLevel = .error
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let server = Task { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw ReceiverDidNotStart() }
        return LocalReceiver(port: port, received: received, server: server)
    }

    struct ReceiverDidNotStart: Error {}
}

final class Counter: Sendable {
    private let count = Atomic(0)
    var value: Int { count.load(ordering: .relaxed) }
    func increment() { count.add(1, ordering: .relaxed) }
}

/// The benchmark's clock, moved by hand past each frequency window.
final class BenchmarkClock: Sendable {
    private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { time.withLock { $0 } }
    func advance(by seconds: TimeInterval) { time.withLock { $0 += seconds } }
}
