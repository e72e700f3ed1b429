import Foundation
import OrderPackage
import OrderStorage
import StorageContract
import Testing
import WalletPrimitives

@Suite("containsOrder: every branch, at full stored precision")
struct ContainsOrderTests {
    static func storeWith(_ updatedAt: String) async throws -> OrderStore {
        let (store, _, _) = try OrderFixtures.store()
        _ = try await store.saveOrder(signedArchive: try OrderFixtures.archive(updatedAt: updatedAt))
        return store
    }

    static func date(_ text: String) throws -> Date {
        try #require(RFC3339Timestamp(text)).date
    }

    @Test("nothing stored: notFound, with or without a date")
    func notFound() async throws {
        let store = try await Self.storeWith("2026-01-15T09:30:00Z")
        let other = OrderFixtures.identifier("ORDER-OTHER")
        #expect(try await store.containsOrder(matching: other) == .notFound)
        #expect(try await store.containsOrder(matching: other, updatedDate: Date()) == .notFound)
        // Identifiers match exactly, case-sensitively.
        #expect(try await store.containsOrder(matching: OrderFixtures.identifier("order-1")) == .notFound)
    }

    @Test("no date: exists whenever a version is stored")
    func noDate() async throws {
        let store = try await Self.storeWith("2026-01-15T09:30:00Z")
        #expect(try await store.containsOrder(matching: OrderFixtures.identifier()) == .exists)
    }

    @Test(
        "equal, later and earlier dates",
        arguments: [
            ("2026-01-15T09:30:00.125Z", "2026-01-15T09:30:00.125Z", ContainsOrderResult.exists),
            ("2026-01-15T09:30:00.125Z", "2026-01-15T10:30:00.125+01:00", .exists),
            ("2026-01-15T09:30:00.123456Z", "2026-01-15T09:30:00.123456Z", .exists),
            ("2026-01-15T09:30:00.123456Z", "2026-01-15T09:30:00.123457Z", .olderExists),
            ("2026-01-15T09:30:00.123456Z", "2026-01-15T09:30:00.123455Z", .newerExists),
            ("2026-01-15T09:30:00Z", "2026-01-15T09:30:01Z", .olderExists),
            ("2026-01-15T09:30:00Z", "2026-01-15T09:29:59.999999Z", .newerExists),
        ])
    func dates(_ stored: String, _ given: String, _ expected: ContainsOrderResult) async throws {
        let store = try await Self.storeWith(stored)
        let id = OrderFixtures.identifier()
        #expect(try await store.containsOrder(matching: id, updatedDate: try Self.date(given)) == expected)
        #expect(try await store.containsOrder(matching: id, updatedAt: try #require(RFC3339Timestamp(given))) == expected)
    }

    @Test("a Date round trip of the stored updatedAt never turns equality into older or newer")
    func roundTrips() async throws {
        for fraction in [".0", ".1", ".125", ".999", ".000001", ".123456", ".999999", ".5"] {
            let text = "2026-01-15T09:30:00\(fraction)Z"
            let store = try await Self.storeWith(text)
            let id = OrderFixtures.identifier()
            // As Foundation's ISO 8601 format style parses it (ISO8601DateFormatter would keep
            // only milliseconds: that loss happens before the call and is not ours to undo).
            let parsed = try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
            #expect(try await store.containsOrder(matching: id, updatedDate: parsed) == .exists, "\(text)")
            let stored = try #require(try await store.order(id))
            #expect(try await store.containsOrder(matching: id, updatedDate: stored.updatedAt.date) == .exists, "\(text)")
        }
    }

    @Test("nanosecond fractions compare exactly through the RFC 3339 API")
    func nanoseconds() async throws {
        let store = try await Self.storeWith("2026-01-15T09:30:00.123456789Z")
        let id = OrderFixtures.identifier()
        #expect(
            try await store.containsOrder(
                matching: id, updatedAt: try #require(RFC3339Timestamp("2026-01-15T09:30:00.123456789Z"))) == .exists)
        #expect(
            try await store.containsOrder(
                matching: id, updatedAt: try #require(RFC3339Timestamp("2026-01-15T09:30:00.12345679Z"))) == .olderExists)
        #expect(
            try await store.containsOrder(
                matching: id, updatedAt: try #require(RFC3339Timestamp("2026-01-15T09:30:00.123456788Z"))) == .newerExists)
    }
}
