import Foundation
import OrderPackage
import OrderStorage
import StorageContract
import TestArchiveTable
import Testing

/// Identifiers are keys: every character must be kept, and none may be lost on the way to SQLite.
@Suite("Identifiers: control characters refused, every other character kept")
struct IdentifierFidelityTests {
    @Test(
        "an identifier with a control character is order.invalidValue at its path",
        arguments: ["ORDER\u{0000}-NUL", "ORDER\u{001F}", "ORDER\u{007F}", "ORDER\u{0085}", "\u{0009}ORDER"])
    func controlCharacters(_ orderIdentifier: String) throws {
        let report = try TestOrderArchiveVerifier.verify(OrderFixtures.archive(orderIdentifier: orderIdentifier))
        #expect(report.errors.map { "\($0.code.rawValue)@\($0.path ?? "-")" } == ["order.invalidValue@orderIdentifier"])
        #expect(report.errors.first?.message.contains("control character U+") == true)
    }

    @Test("an order with a NUL in its identifier is never stored, nor found under its prefix")
    func nulNeverCollides() async throws {
        let (store, _, _) = try OrderFixtures.store()
        await #expect(throws: OrderStoreError.self) {
            try await store.saveOrder(signedArchive: OrderFixtures.archive(orderIdentifier: "ORDER\u{0000}-NUL"))
        }
        #expect(try await store.saveOrder(signedArchive: OrderFixtures.archive(orderIdentifier: "ORDER")) == .added)
        let withNUL = OrderFixtures.identifier("ORDER\u{0000}-NUL")
        #expect(try await store.containsOrder(matching: withNUL) == .notFound)
        #expect(try await store.order(withNUL) == nil)
        #expect(try await store.archive(withNUL) == nil)
        #expect(try await store.history(withNUL).isEmpty)
        #expect(try await store.removeOrder(withNUL) == false)
        #expect(try await store.containsOrder(matching: OrderFixtures.identifier("ORDER")) == .exists)
        let typeWithNUL = OrderQuery(orderTypeIdentifier: "order.com.example.shop\u{0000}.other")
        #expect(try await store.orders(matching: typeWithNUL).isEmpty)
    }

    /// A character from each of the 17 planes (assigned, private-use or not yet assigned), and the
    /// awkward ones of the first: U+FEFF, U+FFFD, combining marks, right-to-left text.
    static let everyPlane: [String] = {
        let planes = (0...16).compactMap { plane in Unicode.Scalar(UInt32(plane) << 16 | (plane == 0 ? 0x00E9 : 0x0041)) }
        let awkward = ["\u{FEFF}", "\u{FFFD}", "e\u{0301}", "\u{05D0}\u{05D1}", "\u{10FFFD}", "\u{E0001}", "/", "%", "'"]
        return planes.map { "ORDER-\(Character($0))" } + awkward.map { "ORDER-\($0)" }
    }()

    @Test("identifiers round-trip exactly through the store, in every Unicode plane")
    func everyPlaneRoundTrips() async throws {
        let (store, _, _) = try OrderFixtures.store()
        for identifier in Self.everyPlane {
            #expect(try await store.saveOrder(signedArchive: OrderFixtures.archive(orderIdentifier: identifier)) == .added)
        }
        let stored = try await store.orders(matching: OrderQuery(limit: 100)).map(\.identifier.orderIdentifier)
        #expect(Set(stored.map { Array($0.unicodeScalars) }) == Set(Self.everyPlane.map { Array($0.unicodeScalars) }))
        for identifier in Self.everyPlane {
            let id = OrderFixtures.identifier(identifier)
            #expect(try await store.containsOrder(matching: id) == .exists, "\(identifier.unicodeScalars.map(\.value))")
            #expect(
                try await store.order(id)?.identifier.orderIdentifier.unicodeScalars.elementsEqual(identifier.unicodeScalars)
                    == true)
        }
        // Canonically equivalent but differently encoded identifiers are different orders.
        #expect(try await store.containsOrder(matching: OrderFixtures.identifier("ORDER-\u{00E9}")) == .exists)
        #expect(try await store.containsOrder(matching: OrderFixtures.identifier("ORDER-e\u{0301}")) == .exists)
        #expect(try await store.orders(matching: OrderQuery(limit: 100)).count == Self.everyPlane.count)
    }
}

enum TestOrderArchiveVerifier {
    static func verify(_ data: Data) throws -> VerificationReport {
        try TestOrderArchive.verifier().verify(data)
    }
}
