import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OrdersService
import TestArchiveTable
import Testing

/// The served OpenAPI document says which operations need credentials as the service decides it
/// (issue 52, item 10: the OAuth metadata answered anyone but carried the global requirement).
@Suite("OpenAPI: security as the service enforces it")
struct OpenAPISecurityTests {
    /// Each operation of the served document: method, path with `x` for every parameter, and
    /// whether a caller without credentials may call it (its effective `security` is `[]` or
    /// holds the empty requirement `{}`).
    static func operations(_ document: [String: Any]) throws -> [(HTTPRequest.Method, String, anonymous: Bool)] {
        let global = document["security"] as? [[String: Any]] ?? []
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operations: [(HTTPRequest.Method, String, anonymous: Bool)] = []
        for (path, items) in paths.sorted(by: { $0.key < $1.key }) {
            for (name, value) in items.sorted(by: { $0.key < $1.key }) {
                guard let method = HTTPRequest.Method(name.uppercased()), let operation = value as? [String: Any] else {
                    continue
                }
                let security = operation["security"] as? [[String: Any]] ?? global
                let concrete = path.replacing(/\{[^}]+\}/, with: "x")
                operations.append((method, concrete, security.isEmpty || security.contains { $0.isEmpty }))
            }
        }
        return operations
    }

    @Test("without credentials: 401 from every operation that needs them; anything but 401 from one that needs none")
    func anonymousCalls() async throws {
        let fixture = try await ServiceFixture.make()
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            let served = try await client.executeRequest(uri: "/api/v1/openapi.json", method: .get, headers: [:], body: nil)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(buffer: served.body)) as? [String: Any])
            let operations = try Self.operations(document)
            #expect(operations.count >= 20, "every operation of the document")
            for (method, path, anonymous) in operations {
                let response = try await client.executeRequest(
                    uri: path, method: method, headers: [.contentType: "application/json"], body: ByteBuffer(string: "{}"))
                if anonymous {
                    // The OAuth endpoints' clients may authenticate or not (public clients): their
                    // refusal of a missing client is RFC 6749's 401, which their {} alternative allows.
                    if !path.hasPrefix("/finance/") {
                        #expect(response.status != .unauthorized, "\(method) \(path) declares no credentials but answered 401")
                    }
                } else {
                    #expect(response.status == .unauthorized, "\(method) \(path) needs credentials: \(response.status)")
                }
            }
            let metadata = try #require(operations.first { $0.1 == "/.well-known/oauth-authorization-server" })
            #expect(metadata.anonymous, "the OAuth metadata is public (RFC 8414)")
        }
    }
}
