import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOHTTP1

/// A response as the tests read it.
struct ServiceResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: Data
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
struct LoopbackClient: ServiceClient {
    let port: Int
    let http: HTTPClient
    /// How long a request may take before the client gives up (`deadlineExceeded`).
    let deadline: TimeAmount

    init(port: Int, deadline: TimeAmount = .seconds(60)) {
        self.port = port
        self.deadline = deadline
        http = HTTPClient(eventLoopGroupProvider: .singleton)
    }

    func send(_ method: HTTPRequest.Method, _ path: String, headers: HTTPFields, body: Data?) async throws -> ServiceResponse {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = HTTPMethod(rawValue: method.rawValue)
        for field in headers { request.headers.add(name: field.name.rawName, value: field.value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await http.execute(request, timeout: deadline)
        var fields = HTTPFields()
        for (name, value) in response.headers {
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        let bytes = try await response.body.collect(upTo: 64 << 20)
        return ServiceResponse(
            status: HTTPResponse.Status(code: Int(response.status.code)), headers: fields, body: Data(buffer: bytes))
    }

    func shutdown() async throws {
        try await http.shutdown()
    }
}
