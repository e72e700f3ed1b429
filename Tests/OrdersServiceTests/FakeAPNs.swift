import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import Logging
import NIOSSL
import ServiceLifecycle
import Synchronization
import TestArchiveTable

/// A local HTTP/2 TLS server that plays APNs: it records every push (path, headers, body,
/// whether it came over HTTP/2) and answers from a script (200 when the script is empty).
/// `requireClientCertificate` makes TLS demand a client certificate chaining to the test root,
/// as APNs does for certificate authentication.
final class FakeAPNs: Sendable {
    struct Push: Sendable {
        var deviceToken: String
        var headers: HTTPFields
        var body: String
        var isHTTP2: Bool
        var receivedAt = Date()
    }

    let pushes = Mutex<[Push]>([])
    private let answers = Mutex<[(status: HTTPResponse.Status, reason: String?)]>([])

    func answer(_ status: HTTPResponse.Status, reason: String? = nil) {
        answers.withLock { $0.append((status, reason)) }
    }

    var received: [Push] { pushes.withLock { $0 } }

    /// Runs the fake on a free loopback port for the duration of `body`.
    func run<T: Sendable>(
        credentials: TestTLS, requireClientCertificate: Bool, _ body: @Sendable (Int) async throws -> T
    ) async throws -> T {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = try application(credentials: credentials, requireClientCertificate: requireClientCertificate) {
            continuation.yield($0)
        }
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: Logger(label: "fake.apns.group"))
        // On threads of its own, as the servers under test (``DedicatedExecutor``).
        let running = Task(executorPreference: DedicatedExecutor.servers) { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw ServeProcessError(message: "the fake APNs did not start") }
        do {
            let result = try await body(port)
            await group.triggerGracefulShutdown()
            try await running.value
            return result
        } catch {
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            throw error
        }
    }

    private func application(
        credentials: TestTLS, requireClientCertificate: Bool, onPort: @escaping @Sendable (Int) -> Void
    ) throws -> some ApplicationProtocol {
        let router = Router(context: FakeAPNsContext.self)
        router.post("3/device/{token}") { request, context -> Response in
            var body = Data()
            for try await buffer in request.body { body.append(contentsOf: buffer.readableBytesView) }
            self.pushes.withLock {
                $0.append(
                    Push(
                        deviceToken: context.parameters.get("token") ?? "", headers: request.headers,
                        body: String(decoding: body, as: UTF8.self), isHTTP2: context.isHTTP2))
            }
            let answer = self.answers.withLock { $0.isEmpty ? (status: HTTPResponse.Status.ok, reason: nil) : $0.removeFirst() }
            let json = answer.reason.map { #"{"reason":"\#($0)"}"# } ?? ""
            return Response(status: answer.status, body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
        }
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(credentials.serverCertificate.path).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: credentials.serverKey.path, format: .pem)))
        if requireClientCertificate {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(TestArchiveTable.testRoot.path))
        }
        var logger = Logger(label: "fake.apns")
        logger.logLevel = .critical
        return Application(
            router: router, server: try .http2Upgrade(tlsConfiguration: tls),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { onPort($0.localAddress?.port ?? 0) }, logger: logger)
    }
}

/// Keys and certificates made with the openssl tool for one test: a server certificate for
/// 127.0.0.1 signed by the test root, and an APNs-style P-256 `.p8` key with its public key.
struct TestTLS {
    let folder: URL
    var serverCertificate: URL { folder.appendingPathComponent("server.pem") }
    var serverKey: URL { folder.appendingPathComponent("server.key") }
    var p8: URL { folder.appendingPathComponent("AuthKey_TEST.p8") }
    var p8PublicKey: URL { folder.appendingPathComponent("AuthKey_TEST.pub") }
    /// The Order Type ID certificate and its chain, as `--push-certificate` takes them.
    var clientCertificateChain: Data {
        get throws { try TestArchiveTable.data("pki/order.pem") + TestArchiveTable.data("pki/wwdr.pem") }
    }

    static func make() async throws -> TestTLS {
        let tls = TestTLS(folder: try TemporaryDirectory.make("tls"))
        let root = TestArchiveTable.directory.appendingPathComponent("pki")
        let extensions = tls.folder.appendingPathComponent("san.cnf")
        try Data("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n".utf8).write(to: extensions)
        try await openssl([
            "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", tls.serverKey.path, "-subj", "/CN=127.0.0.1",
            "-out", tls.folder.appendingPathComponent("server.csr").path,
        ])
        try await openssl([
            "x509", "-req", "-in", tls.folder.appendingPathComponent("server.csr").path,
            "-CA", root.appendingPathComponent("root.pem").path, "-CAkey", root.appendingPathComponent("root.key").path,
            "-CAserial", tls.folder.appendingPathComponent("root.srl").path, "-CAcreateserial", "-days", "2", "-extfile",
            extensions.path, "-out", tls.serverCertificate.path,
        ])
        try await openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", tls.p8.path])
        try await openssl(["pkey", "-in", tls.p8.path, "-pubout", "-out", tls.p8PublicKey.path])
        return tls
    }

    /// Runs the openssl tool; its output is discarded, a failure throws.
    static func openssl(_ arguments: [String]) async throws {
        let status = try await opensslStatus(arguments)
        guard status == 0 else { throw ServeProcessError(message: "openssl \(arguments.first ?? "") exited \(status)") }
    }

    /// Runs the openssl tool and returns its exit status.
    static func opensslStatus(_ arguments: [String], in folder: URL? = nil) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if let folder { process.currentDirectoryURL = folder }
        try process.run()
        await process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Tells HTTP/2 requests apart: each arrives on a stream channel, a child of the connection
/// channel, which is itself a child of the listening channel; an HTTP/1.1 request's channel is
/// the connection.
struct FakeAPNsContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let isHTTP2: Bool

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        isHTTP2 = source.channel.parent?.parent != nil
    }
}
