import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A response as the tests read it.
struct ServiceResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: Data
    /// When the response's head arrived, noted on the client's event loop (``LoopbackClient``):
    /// unlike the instant the awaiting task resumes, it does not wait for a thread of Swift
    /// concurrency's pool, which the other tests of the process keep busy.
    var answeredAt: ContinuousClock.Instant? = nil
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Something that sends a request to a running service: HummingbirdTesting's live client, or
/// ``LoopbackClient`` for the `orders serve` process.
protocol ServiceClient: Sendable {
    func send(_ method: HTTPRequest.Method, _ path: String, headers: HTTPFields, body: Data?) async throws -> ServiceResponse
}

/// HummingbirdTesting's client (live mode: a real server on a loopback port).
struct TestingClient: ServiceClient {
    let client: any TestClientProtocol

    func send(_ method: HTTPRequest.Method, _ path: String, headers: HTTPFields, body: Data?) async throws -> ServiceResponse {
        let response = try await client.executeRequest(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
        return ServiceResponse(status: response.status, headers: response.headers, body: Data(buffer: response.body))
    }
}

/// AsyncHTTPClient against `http://127.0.0.1:PORT`.
///
/// A test that throws before ``shutdown()`` does not end the whole run: an `HTTPClient` released
/// while running traps in a debug build (on whichever event loop drops it last), so the client is
/// shut down when the last reference goes instead.
final class LoopbackClient: ServiceClient {
    let port: Int
    let http: HTTPClient
    /// How long a request may take before the client gives up (`deadlineExceeded`).
    let deadline: TimeAmount
    /// The client's own event loop, when it was given one.
    private let ownLoop: MultiThreadedEventLoopGroup?
    private let isShutDown = Atomic<Bool>(false)

    /// `ownThread`: the client runs on an event loop of its own, not the process's shared ones,
    /// which other tests' in-process servers and PostgreSQL connections keep busy — for a test
    /// that times the answers (``ServiceResponse/answeredAt``).
    init(port: Int, deadline: TimeAmount = .seconds(60), ownThread: Bool = false) {
        self.port = port
        self.deadline = deadline
        ownLoop = ownThread ? MultiThreadedEventLoopGroup(numberOfThreads: 1) : nil
        http = ownLoop.map { HTTPClient(eventLoopGroupProvider: .shared($0)) } ?? HTTPClient(eventLoopGroupProvider: .singleton)
    }

    func send(_ method: HTTPRequest.Method, _ path: String, headers: HTTPFields, body: Data?) async throws -> ServiceResponse {
        let request = try HTTPClient.Request(
            url: "http://127.0.0.1:\(port)\(path)", method: HTTPMethod(rawValue: method.rawValue),
            headers: HTTPHeaders(headers.map { ($0.name.rawName, $0.value) }),
            body: body.map { .byteBuffer(ByteBuffer(bytes: $0)) })
        let answer = try await http.execute(
            request: request, delegate: TimedResponse(), deadline: .now() + deadline
        ).get()
        var fields = HTTPFields()
        for (name, value) in answer.head.headers {
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        return ServiceResponse(
            status: HTTPResponse.Status(code: Int(answer.head.status.code)), headers: fields, body: Data(buffer: answer.body),
            answeredAt: answer.answeredAt)
    }

    func shutdown() async throws {
        guard !isShutDown.exchange(true, ordering: .relaxed) else { return }
        try await http.shutdown()
        try await ownLoop?.shutdownGracefully()
    }

    deinit {
        guard !isShutDown.load(ordering: .relaxed) else { return }
        let (http, ownLoop) = (http, ownLoop)
        Task {
            try? await http.shutdown()
            try? await ownLoop?.shutdownGracefully()
        }
    }
}

/// A response's head, noted with the instant it arrived, and its body (at most 64 MiB). Every
/// call comes on the request's event loop, one after another.
private final class TimedResponse: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = (head: HTTPResponseHead, body: ByteBuffer, answeredAt: ContinuousClock.Instant)

    private var head: HTTPResponseHead?
    private var answeredAt: ContinuousClock.Instant?
    private var body = ByteBuffer()

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        answeredAt = .now
        self.head = head
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        guard body.readableBytes + part.readableBytes <= 64 << 20 else {
            return task.eventLoop.makeFailedFuture(HTTPClientError.bodyLengthMismatch)
        }
        body.writeImmutableBuffer(part)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        guard let head, let answeredAt else { throw HTTPClientError.remoteConnectionClosed }
        return (head, body, answeredAt)
    }
}
