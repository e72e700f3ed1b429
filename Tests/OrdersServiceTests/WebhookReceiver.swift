import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import TestArchiveTable
import WalletOutbox

/// A background-delivery receiver on a free loopback port: it checks each delivery's
/// `Wallet-Signature` against the secrets it was given, records it, and answers from a script —
/// a status, no answer at all, a body trickled out, a redirect — 200 when the script is empty.
final class WebhookReceiver: Sendable {
    enum Behaviour: Sendable {
        case status(Int)
        /// Never answers (until the receiver stops).
        case hang
        /// 200 at once, then a body of a byte every 100 ms (until the receiver stops).
        case slowBody
        /// 200 with this many bytes of body, at once.
        case largeBody(Int)
        /// 302 to this URL.
        case redirect(String)
        /// 200 after this long.
        case delay(Duration)
    }

    struct Delivery: Sendable {
        var path: String
        var deliveryID: String
        var types: [String]
        var occurredAt: String
        /// `Wallet-Signature` and the Standard Webhooks headers both valid for a trusted secret.
        var signatureValid: Bool
        var headers: HTTPFields
        var body: Data
    }

    private let deliveries = Mutex<[Delivery]>([])
    private let script = Mutex<[Behaviour]>([])
    private let secrets = Mutex<[String]>([])
    private let stopped = Mutex(false)
    private let clock: @Sendable () -> Date

    /// `clock` is the time signatures are checked at (the sender's, when a test moves it).
    init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }

    var received: [Delivery] { deliveries.withLock { $0 } }

    func answer(_ behaviours: Behaviour...) {
        script.withLock { $0.append(contentsOf: behaviours) }
    }

    func trust(_ secret: String) {
        secrets.withLock { $0.append(secret) }
    }

    /// Waits until `count` deliveries arrived (or `timeout` passed: the count is then short).
    @discardableResult
    func wait(for count: Int, timeout: Duration = .seconds(30)) async -> [Delivery] {
        await Poll.until(timeout: timeout) { received.count >= count }
        return received
    }

    /// Waits until a delivery to `path` arrived (or 30 s passed).
    func wait(forPath path: String) async {
        await Poll.until(every: .milliseconds(5)) { received.contains { $0.path == path } }
    }

    /// Runs the receiver for the duration of `body`, which gets its port.
    func run<T: Sendable>(_ body: @Sendable (Int) async throws -> T) async throws -> T {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let router = Router()
        router.post("**") { request, context in try await self.handle(request, context: context) }
        var logger = Logger(label: "test.receiver")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw ServeProcessError(message: "the receiver did not start") }
        defer { stopped.withLock { $0 = true } }
        do {
            let result = try await body(port)
            stopped.withLock { $0 = true }
            await group.triggerGracefulShutdown()
            try await running.value
            return result
        } catch {
            stopped.withLock { $0 = true }
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            throw error
        }
    }

    private func handle(_ request: Request, context: BasicRequestContext) async throws -> Response {
        var body = Data()
        for try await buffer in request.body { body.append(contentsOf: buffer.readableBytesView) }
        func header(_ name: String) -> String {
            request.headers.first { $0.name.canonicalName == name.lowercased() }?.value ?? ""
        }
        let signature = header(WebhookSignature.headerName)
        let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        let now = clock()
        // Both schemes, with the same secret; the Standard Webhooks id is the delivery's.
        let valid = secrets.withLock { secrets in
            secrets.contains { secret in
                WebhookSignature.isValid(signature, secret: secret, body: body, now: now)
                    && StandardWebhookSignature.isValid(
                        id: header("webhook-id"), timestampHeader: header("webhook-timestamp"),
                        signatureHeader: header("webhook-signature"), secret: secret, body: body, now: now)
                    && header("webhook-id") == json?["deliveryID"] as? String
            }
        }
        deliveries.withLock {
            $0.append(
                Delivery(
                    path: request.uri.path, deliveryID: json?["deliveryID"] as? String ?? "",
                    types: json?["types"] as? [String] ?? [], occurredAt: json?["occurredAt"] as? String ?? "",
                    signatureValid: valid, headers: request.headers, body: body))
        }
        switch script.withLock({ $0.isEmpty ? Behaviour.status(200) : $0.removeFirst() }) {
        case .status(let code):
            return Response(status: HTTPResponse.Status(code: code))
        case .hang:
            while !stopped.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(50)) }
            return Response(status: .serviceUnavailable)
        case .slowBody:
            return Response(
                status: .ok,
                body: ResponseBody { writer in
                    while !self.stopped.withLock({ $0 }) {
                        try await writer.write(ByteBuffer(string: "."))
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    try await writer.finish(nil)
                })
        case .largeBody(let size):
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(repeating: UInt8(ascii: "x"), count: size)))
        case .redirect(let location):
            return Response(status: .found, headers: [.location: location])
        case .delay(let duration):
            try await Task.sleep(for: duration)
            return Response(status: .ok)
        }
    }
}
