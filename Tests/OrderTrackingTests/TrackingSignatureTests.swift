import Foundation
import Testing

@testable import OrderTracking

/// Each provider's signature scheme as its documentation gives it, checked against signatures
/// Python's `hmac` computed over the fixtures (Tests/Fixtures/tracking/signatures.tsv).
@Suite("Tracking webhooks: the providers' signatures")
struct TrackingSignatureTests {
    @Test("every fixture's signature is the one Python computed, and is accepted")
    func fixturesSigned() throws {
        let signatures = try TrackingFixtures.signatures()
        #expect(signatures.count == 5)
        for (file, (header, value)) in signatures {
            let provider: TrackingProvider = file.hasPrefix("aftership") ? .afterShip : .easyPost
            let scheme = try #require(TrackingSignature(provider: provider))
            let body = try TrackingFixtures.body(file)
            #expect(scheme.header == header)
            #expect(scheme.value(for: body, secret: TrackingFixtures.secret) == value, "\(file)")
            try scheme.check(value, body: body, secrets: [TrackingFixtures.secret])
        }
    }

    @Test(
        "refused: no header, another secret, a byte of the body changed; accepted under either of two secrets",
        arguments: TrackingProvider.allCases.filter(\.signsBodies))
    func refusals(_ provider: TrackingProvider) throws {
        let scheme = try #require(TrackingSignature(provider: provider))
        let body = try TrackingFixtures.body(provider == .afterShip ? "aftership-delivered.json" : "easypost-delivered.json")
        let value = scheme.value(for: body, secret: TrackingFixtures.secret)
        #expect(throws: TrackingError.unsigned(header: scheme.header)) {
            try scheme.check(nil, body: body, secrets: [TrackingFixtures.secret])
        }
        #expect(throws: TrackingError.unsigned(header: scheme.header)) {
            try scheme.check("", body: body, secrets: [TrackingFixtures.secret])
        }
        #expect(throws: TrackingError.badSignature(header: scheme.header)) {
            try scheme.check(value, body: body, secrets: ["another-secret"])
        }
        var tampered = body
        tampered[tampered.index(tampered.startIndex, offsetBy: 40)] ^= 0x01
        #expect(throws: TrackingError.badSignature(header: scheme.header)) {
            try scheme.check(value, body: tampered, secrets: [TrackingFixtures.secret])
        }
        #expect(throws: TrackingError.badSignature(header: scheme.header)) {
            try scheme.check(value, body: body, secrets: [])
        }
        // Rotation: the new secret first or second, the old one still accepted.
        try scheme.check(value, body: body, secrets: ["the-new-secret", TrackingFixtures.secret])
        try scheme.check(value, body: body, secrets: [TrackingFixtures.secret, "the-new-secret"])
    }

    @Test("EasyPost normalizes its secret to NFKD as its client libraries do; AfterShip takes the bytes as they are")
    func secretNormalization() throws {
        let body = try TrackingFixtures.body("easypost-in-transit.json")
        let ligature = "\u{FB01}xture-secret-1"  // "ﬁ", which NFKD makes "fi"
        let easyPost = try #require(TrackingSignature(provider: .easyPost))
        #expect(easyPost.value(for: body, secret: ligature) == easyPost.value(for: body, secret: TrackingFixtures.secret))
        let afterShip = try #require(TrackingSignature(provider: .afterShip))
        #expect(afterShip.value(for: body, secret: ligature) != afterShip.value(for: body, secret: TrackingFixtures.secret))
        #expect(TrackingSignature(provider: .generic) == nil)
    }

    @Test("an AfterShip body is refused when its signed ts is more than 5 minutes from now, either way")
    func staleness() throws {
        let body = try TrackingFixtures.body("aftership-out-for-delivery.json")
        let signature = try #require(try TrackingFixtures.signatures()["aftership-out-for-delivery.json"]).value
        let ts = try #require(TrackingFixtures.ts(of: body))
        for offset in [0, 299, 300, -300] {
            let event = try TrackingWebhook.event(
                .afterShip, body: body, signature: signature, secrets: [TrackingFixtures.secret],
                now: ts.addingTimeInterval(TimeInterval(offset)))
            #expect(event.eventID == "3f645f5e-530b-4062-8695-db6a64420af8")
        }
        for offset in [301, 86_400, -301] {
            #expect(throws: TrackingError.stale(path: "ts", age: .seconds(abs(offset)), limit: .seconds(300))) {
                try TrackingWebhook.event(
                    .afterShip, body: body, signature: signature, secrets: [TrackingFixtures.secret],
                    now: ts.addingTimeInterval(TimeInterval(offset)))
            }
        }
        // The signature is checked before anything of the body is read: a stale body under a
        // wrong secret is refused for its signature.
        #expect(throws: TrackingError.badSignature(header: "aftership-hmac-sha256")) {
            try TrackingWebhook.event(
                .afterShip, body: body, signature: signature, secrets: ["other"], now: ts.addingTimeInterval(86_400))
        }
    }

    @Test("the errors' codes, categories and places")
    func errorContract() {
        #expect(TrackingError.unsigned(header: "X-Hmac-Signature").code == "tracking.unsigned")
        #expect(TrackingError.unsigned(header: "X-Hmac-Signature").category == .unauthorized)
        #expect(TrackingError.badSignature(header: "X-Hmac-Signature").path == "X-Hmac-Signature")
        #expect(TrackingError.stale(path: "ts", age: .seconds(400), limit: .seconds(300)).category == .unauthorized)
        #expect(TrackingError.invalidBody(path: "msg.tag", reason: "r").category == .invalidInput)
        #expect(TrackingError.unsupportedEvent("batch.created").message.contains("'batch.created'"))
    }
}
