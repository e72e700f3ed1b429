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

    static let serviceURL = "https://wallet.example.com/"
    /// A merchant's own web service, which the operator allowed for the type.
    static let merchantURL = "https://shop.example.com/w/"

    static func compose(
        _ incoming: String, stored: (String, String)? = nil, now: Date = now, serviceURL: String? = serviceURL,
        allowed: Set<String> = [merchantURL]
    ) throws -> AuthoredOrderContent {
        try AuthoredOrderContent(
            try json(incoming), orderTypeIdentifier: type, orderIdentifier: id,
            stored: try stored.map { (try json($0.0), try #require(RFC3339Timestamp($0.1))) }, now: now,
            webService: WebServiceURLPolicy(serviceURL: serviceURL, allowed: [type: allowed]),
            makeToken: { "0123456789abcdef0123456789abcdef" })
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

    @Test("the merchant may rotate the token, and name a URL the operator allowed for the type")
    func merchantOwned() throws {
        let stored = (
            #"{"createdAt":"2026-01-01T00:00:00Z","authenticationToken":"old-token-of-sixteen","webServiceURL":"https://wallet.example.com/"}"#,
            "2026-01-01T00:00:00Z"
        )
        let rotated = try Self.compose(#"{"authenticationToken":"new-token-of-sixteen"}"#, stored: stored)
        #expect(rotated.authenticationToken == "new-token-of-sixteen" && rotated.webServiceURL == Self.serviceURL)
        let own = try Self.compose(#"{"webServiceURL":"https://shop.example.com/w/"}"#, stored: stored)
        #expect(own.webServiceURL == Self.merchantURL)
        #expect(
            own.authenticationToken == "0123456789abcdef0123456789abcdef", "the stored token does not go to the new URL")
    }

    @Test("without a public URL a version must name an allowed URL: Apple Pay's orderDetails needs one (issue 53, item 6)")
    func noPublicURL() throws {
        #expect(throws: AuthoringError.publicURLRequired(orderTypeIdentifier: Self.type)) {
            try Self.compose("{}", serviceURL: nil)
        }
        #expect(throws: AuthoringError.publicURLRequired(orderTypeIdentifier: Self.type)) {
            try Self.compose(#"{"webServiceURL":null}"#, serviceURL: nil)
        }
        let own = try Self.compose(#"{"webServiceURL":"https://shop.example.com/w/"}"#, serviceURL: nil)
        #expect(own.webServiceURL == Self.merchantURL)
        let stored = (
            #"{"createdAt":"2026-01-01T00:00:00Z","webServiceURL":"https://shop.example.com/w/"}"#, "2026-01-01T00:00:00Z"
        )
        #expect(try Self.compose("{}", stored: stored, serviceURL: nil).webServiceURL == Self.merchantURL)
        #expect(AuthoringError.publicURLRequired(orderTypeIdentifier: Self.type).code == "authoring.publicURLRequired")
    }

    @Test("another webServiceURL is refused, whoever asks and however it is written (issue 52, item 1)")
    func foreignURL() throws {
        let stored = (
            #"{"createdAt":"2026-01-01T00:00:00Z","authenticationToken":"stored-token-of-sixteen","webServiceURL":"https://wallet.example.com/"}"#,
            "2026-01-01T00:00:00Z"
        )
        for url in [
            "https://evil.example/steal/", "https://wallet.example.com.evil.example/", "https://shop.example.com/w/x/",
            "http://wallet.example.com/", "https://wallet.example.com",
        ] {
            #expect {
                _ = try Self.compose(#"{"webServiceURL":"\#(url)"}"#, stored: stored)
            } throws: { error in
                guard let error = error as? AuthoringError else { return false }
                return error.code == "authoring.webServiceURLNotAllowed" && error.path == "webServiceURL"
                    && error.message.contains("https://wallet.example.com/")
            }
        }
        #expect(throws: AuthoringError.self) {
            try Self.compose(#"{"webServiceURL":"https://shop.example.com/w/"}"#, stored: stored, allowed: [])
        }
    }

    @Test("a stored URL the policy no longer permits becomes the service's, with a new token")
    func storedForeignURL() throws {
        let stored = (
            #"{"createdAt":"2026-01-01T00:00:00Z","authenticationToken":"stored-token-of-sixteen","webServiceURL":"https://evil.example/steal/"}"#,
            "2026-01-01T00:00:00Z"
        )
        let content = try Self.compose(#"{"status":"completed"}"#, stored: stored)
        #expect(content.webServiceURL == Self.serviceURL)
        #expect(content.authenticationToken == "0123456789abcdef0123456789abcdef")
        let sameToken = try Self.compose(#"{"authenticationToken":"stored-token-of-sixteen"}"#, stored: stored)
        #expect(sameToken.authenticationToken == "0123456789abcdef0123456789abcdef", "sending the old token keeps nothing")
        let allowedStays = try Self.compose(
            "{}",
            stored: (
                #"{"authenticationToken":"stored-token-of-sixteen","webServiceURL":"https://shop.example.com/w/"}"#,
                "2026-01-01T00:00:00Z"
            ))
        #expect(allowedStays.webServiceURL == Self.merchantURL)
        #expect(allowedStays.authenticationToken == "stored-token-of-sixteen")
    }

    @Test(
        "--allow-web-service-url's form: TYPE=https URL ending in /",
        arguments: [
            ("order.com.shop=https://shop.example.com/wallet/", true), ("order.com.shop=https://shop.example.com/", true),
            ("order.com.shop=https://shop.example.com:8443/", true), ("order.com.shop=http://shop.example.com/", false),
            ("order.com.shop=https://shop.example.com", false), ("=https://shop.example.com/", false),
            ("order.com.shop", false), ("order.com.shop=https://u@shop.example.com/", false),
            ("order.com.shop=https://shop.example.com/?a=1/", false), ("order.com.shop=https:///", false),
            ("order.com.shop=https://shop.example.com//x/", false),
        ])
    func allowanceForm(_ text: String, _ valid: Bool) {
        #expect((WebServiceURLPolicy.allowance(text) != nil) == valid)
    }

    @Test("each refusal's path: the field or file it names, none for the order as a whole")
    func refusalPaths() {
        #expect(AuthoringError.webServiceURLNotAllowed(given: "https://e.example/", serviceURL: nil).path == "webServiceURL")
        #expect(AuthoringError.reservedFileName("signature").path == "signature")
        #expect(AuthoringError.versionChanged(basis: "0123").path == nil)
        #expect(AuthoringError.versionChanged(basis: "0123").category == .conflict)
        #expect(AuthoringError.contended(attempts: 4).path == nil)
    }

    @Test(
        "refusals with code and path",
        arguments: [
            (#"{"orderTypeIdentifier":"order.com.other"}"#, "authoring.identifierMismatch", "orderTypeIdentifier"),
            (#"{"orderIdentifier":"ORDER-2"}"#, "authoring.identifierMismatch", "orderIdentifier"),
            (#"{"orderIdentifier":1}"#, "authoring.identifierMismatch", "orderIdentifier"),
            (#"{"createdAt":"2026-02-01T00:00:00Z"}"#, "authoring.immutableField", "createdAt"),
            (#"[]"#, "authoring.invalidContent", nil),
            (#"{"webServiceURL":"https://evil.example/steal/"}"#, "authoring.webServiceURLNotAllowed", "webServiceURL"),
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
