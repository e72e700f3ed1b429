import Foundation
import Testing
import WalletPrimitives

@testable import OrderPackage

/// What the service owns in an authored order.json (issue 43, item 2).
@Suite("Authored order content: the fields the service owns")
struct AuthoredOrderContentTests {
    static let type = "order.com.example.shop"
    static let id = "ORDER-1"
    static let now = Date(timeIntervalSince1970: 1_795_000_000.123_456)

    static func json(_ text: String) throws -> JSONValue {
        try JSONParser().parse(Data(text.utf8)).value
    }

    static func compose(
        _ incoming: String, stored: (String, String)? = nil, now: Date = now, serviceURL: String? = "https://wallet.example.com/"
    ) throws -> AuthoredOrderContent {
        try AuthoredOrderContent(
            try json(incoming), orderTypeIdentifier: type, orderIdentifier: id,
            stored: try stored.map { (try json($0.0), try #require(RFC3339Timestamp($0.1))) }, now: now,
            serviceURL: serviceURL, makeToken: { "0123456789abcdef0123456789abcdef" })
    }

    static func field(_ content: AuthoredOrderContent, _ key: String) -> JSONValue? {
        guard case .object(let object) = content.document else { return nil }
        return object[key]
    }

    @Test("a first version: identifiers, createdAt and updatedAt now (milliseconds), a new token, the service's URL")
    func firstVersion() throws {
        let content = try Self.compose(#"{"status":"open"}"#)
        #expect(
            content.document.serialized
                == #"{"status":"open","orderTypeIdentifier":"order.com.example.shop","orderIdentifier":"ORDER-1","createdAt":"2026-11-18T11:06:40.123Z","updatedAt":"2026-11-18T11:06:40.123Z","authenticationToken":"0123456789abcdef0123456789abcdef","webServiceURL":"https://wallet.example.com/"}"#
        )
        #expect(content.updatedAt.text == "2026-11-18T11:06:40.123Z")
        #expect(content.authenticationToken == "0123456789abcdef0123456789abcdef")
        #expect(AuthoredOrderContent.newToken().utf8.count == 32)
        #expect(AuthoredOrderContent.newToken() != AuthoredOrderContent.newToken())
    }

    @Test("a next version keeps createdAt, the token and the URL, and is 1 ms after a stored version from a clock ahead")
    func nextVersion() throws {
        let stored = (
            #"{"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-12-01T00:00:00.000900Z","authenticationToken":"stored-token-of-sixteen","webServiceURL":"https://shop.example.com/w/"}"#,
            "2026-12-01T00:00:00.000900Z"
        )
        let content = try Self.compose(#"{"status":"completed","updatedAt":"1999-01-01T00:00:00Z"}"#, stored: stored)
        #expect(content.updatedAt.text == "2026-12-01T00:00:00.001Z", "max(now, stored + 1 ms), whatever was sent")
        #expect(Self.field(content, "createdAt") == .string("2026-01-01T00:00:00Z"))
        #expect(content.authenticationToken == "stored-token-of-sixteen")
        #expect(content.webServiceURL == "https://shop.example.com/w/")
        let later = try Self.compose(#"{"status":"completed"}"#, stored: (stored.0, "2026-01-01T00:00:00Z"))
        #expect(later.updatedAt.text == "2026-11-18T11:06:40.123Z", "now, when now is later")
    }

    @Test("the merchant may rotate the token and name its own URL")
    func merchantOwned() throws {
        let stored = (
            #"{"createdAt":"2026-01-01T00:00:00Z","authenticationToken":"old-token-of-sixteen"}"#, "2026-01-01T00:00:00Z"
        )
        let content = try Self.compose(
            #"{"authenticationToken":"new-token-of-sixteen","webServiceURL":"https://shop.example.com/"}"#, stored: stored)
        #expect(content.authenticationToken == "new-token-of-sixteen")
        #expect(content.webServiceURL == "https://shop.example.com/")
        #expect(try Self.compose("{}", serviceURL: nil).webServiceURL == nil)
    }

    @Test(
        "refusals with code and path",
        arguments: [
            (#"{"orderTypeIdentifier":"order.com.other"}"#, "authoring.identifierMismatch", "orderTypeIdentifier"),
            (#"{"orderIdentifier":"ORDER-2"}"#, "authoring.identifierMismatch", "orderIdentifier"),
            (#"{"orderIdentifier":1}"#, "authoring.identifierMismatch", "orderIdentifier"),
            (#"{"createdAt":"2026-02-01T00:00:00Z"}"#, "authoring.immutableField", "createdAt"),
            (#"[]"#, "authoring.invalidContent", nil),
        ] as [(String, String, String?)])
    func refused(_ incoming: String, _ code: String, _ path: String?) throws {
        #expect {
            _ = try Self.compose(incoming, stored: (#"{"createdAt":"2026-01-01T00:00:00Z"}"#, "2026-01-01T00:00:00Z"))
        } throws: { error in
            guard let error = error as? AuthoringError else { return false }
            return error.code == code && error.path == path
        }
    }
}
