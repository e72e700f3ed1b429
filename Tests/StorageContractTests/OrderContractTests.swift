import Foundation
import OrderPackage
import OrderStorage
import StorageContract
import TestArchiveTable
import Testing
import WalletCore
import WalletPrimitives

/// Orders as every backend must keep them (OrderVersionPolicy applied in its own transaction).
@Suite("Contract: orders")
struct OrderContractTests {
    @Test("save decides insert, replace, unchanged, keepNewer, conflict, signerChanged", arguments: BackendFactory.all)
    func decisions(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let store = try OrderFixtures.store(on: backend)
        func candidate(_ updatedAt: String, signer: String = "order", status: String = "open") throws -> OrderCandidate {
            try store.prepared(signedArchive: OrderFixtures.archive(updatedAt: updatedAt, status: status, signer: signer))
                .candidate
        }
        let first = try candidate("2026-01-15T09:30:00Z")
        #expect(try await backend.orders.save(first, at: OrderFixtures.now) == .insert)
        #expect(try await backend.orders.save(first, at: OrderFixtures.now) == .unchanged)
        #expect(try await backend.orders.save(try candidate("2026-01-16T09:30:00Z"), at: OrderFixtures.now) == .replace)
        #expect(try await backend.orders.save(try candidate("2026-01-14T09:30:00Z"), at: OrderFixtures.now) == .keepNewer)
        #expect(
            try await backend.orders.save(try candidate("2026-01-16T09:30:00Z", status: "completed"), at: OrderFixtures.now)
                == .conflict)
        #expect(
            try await backend.orders.save(try candidate("2026-01-17T09:30:00Z", signer: "other-team"), at: OrderFixtures.now)
                == .signerChanged(storedTeam: "ABCDE12345"))
        let history = try await backend.orders.history(of: OrderFixtures.identifier())
        #expect(history.map(\.updatedAt.text) == ["2026-01-15T09:30:00Z", "2026-01-16T09:30:00Z"])
        #expect(history.first?.replacedAt != nil && history.last?.replacedAt == nil)
    }

    @Test("containsOrder: exists, newerExists, olderExists, notFound", arguments: BackendFactory.all)
    func contains(_ factory: BackendFactory) async throws {
        let store = try OrderFixtures.store(on: try await factory.make())
        #expect(try await store.saveOrder(signedArchive: OrderFixtures.archive(updatedAt: "2026-01-15T09:30:00Z")) == .added)
        let id = OrderFixtures.identifier()
        let at = { (text: String) in try #require(RFC3339Timestamp(text)) }
        #expect(try await store.containsOrder(matching: id) == .exists)
        #expect(try await store.containsOrder(matching: id, updatedAt: at("2026-01-15T09:30:00Z")) == .exists)
        #expect(try await store.containsOrder(matching: id, updatedAt: at("2026-01-14T09:30:00Z")) == .newerExists)
        #expect(try await store.containsOrder(matching: id, updatedAt: at("2026-01-16T09:30:00Z")) == .olderExists)
        #expect(try await store.containsOrder(matching: OrderFixtures.identifier("ORDER-2")) == .notFound)
    }

    @Test(
        "lookUpEntitledOrder: the order, the restriction and one client's entitlement in one row, whatever is stored",
        arguments: BackendFactory.all)
    func entitledLookup(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let store = try OrderFixtures.store(on: backend)
        let client: ClientIdentifier = "apikey.0123456789abcdef"
        let id = OrderFixtures.identifier()
        // Nothing stored, nothing entitled, nothing restricted: still an answer.
        var lookup = try await backend.orders.lookUpEntitledOrder(id, for: client)
        #expect(lookup.access == OrderTypeAccess(restrictedSince: nil, isEntitled: false) && lookup.order == nil)
        #expect(try await store.saveOrder(signedArchive: OrderFixtures.archive(updatedAt: "2026-01-15T09:30:00Z")) == .added)
        #expect(try await store.saveOrder(signedArchive: OrderFixtures.archive(updatedAt: "2026-01-16T09:30:00Z")) == .added)
        lookup = try await backend.orders.lookUpEntitledOrder(id, for: client)
        #expect(lookup.access.isEntitled == false)
        // The order is read whether or not the client may see it: the caller decides.
        #expect(lookup.order == (try await backend.orders.currentVersion(of: id)))
        try await backend.access.entitle(client, toOrderTypes: [id.orderTypeIdentifier])
        try await backend.access.entitle("apikey.other", toOrderTypes: ["order.com.other"])
        lookup = try await backend.orders.lookUpEntitledOrder(id, for: client)
        #expect(lookup.access == OrderTypeAccess(restrictedSince: nil, isEntitled: true))
        #expect(lookup.order?.updatedAt.text == "2026-01-16T09:30:00Z" && lookup.order?.replacedAt == nil)
        #expect(lookup.order?.archiveSize == (try await backend.orders.archive(of: id))?.count)
        // Another client, another order, a key or client holding U+0000.
        #expect(try await backend.orders.lookUpEntitledOrder(id, for: "apikey.other").access.isEntitled == false)
        #expect(try await backend.orders.lookUpEntitledOrder(OrderFixtures.identifier("ORDER-2"), for: client).order == nil)
        let nul = FullyQualifiedOrderIdentifier(orderTypeIdentifier: id.orderTypeIdentifier, orderIdentifier: "ORDER-1\u{0}")
        lookup = try await backend.orders.lookUpEntitledOrder(nul, for: client)
        #expect(lookup.order == nil && lookup.access.isEntitled == false)
        let nulClient = ClientIdentifier(stringLiteral: "apikey.0123\u{0}")
        #expect(try await backend.orders.lookUpEntitledOrder(id, for: nulClient).order == nil)
        // The restriction of orders is in the same row.
        let time = Date(timeIntervalSince1970: 1_790_000_000)
        try await backend.access.setRestricted(.orders, true, at: time)
        lookup = try await backend.orders.lookUpEntitledOrder(id, for: client)
        #expect(lookup.access == OrderTypeAccess(restrictedSince: time, isEntitled: true) && lookup.order != nil)
    }

    @Test("archives come back byte for byte; listing filters and pages; removal removes history", arguments: BackendFactory.all)
    func readsAndRemoval(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let store = try OrderFixtures.store(on: backend)
        var archives: [String: Data] = [:]
        for (index, status) in ["open", "completed", "open"].enumerated() {
            let archive = try OrderFixtures.archive(
                orderIdentifier: "ORDER-\(index)", updatedAt: "2026-01-1\(index + 5)T00:00:00Z", status: status)
            archives["ORDER-\(index)"] = archive
            _ = try await store.saveOrder(signedArchive: archive)
        }
        for (id, archive) in archives { #expect(try await store.archive(OrderFixtures.identifier(id)) == archive) }
        #expect(try await store.orders().map(\.identifier.orderIdentifier) == ["ORDER-2", "ORDER-1", "ORDER-0"])
        #expect(try await store.orders(matching: OrderQuery(status: "open")).count == 2)
        #expect(
            try await store.orders(matching: OrderQuery(limit: 1, offset: 1)).map(\.identifier.orderIdentifier) == ["ORDER-1"])
        var types = OrderQuery()
        types.orderTypeIdentifiers = []
        #expect(try await store.orders(matching: types).isEmpty)
        #expect(try await store.countOrders(matching: types) == 0)
        #expect(try await store.countOrders() == 3)
        #expect(try await store.countOrders(matching: OrderQuery(status: "open", limit: 1, offset: 5)) == 2)
        #expect(try await store.removeOrder(OrderFixtures.identifier("ORDER-1")))
        #expect(try await store.history(OrderFixtures.identifier("ORDER-1")).isEmpty)
        #expect(try await store.removeOrder(OrderFixtures.identifier("ORDER-1")) == false)
    }

    @Test(
        "every stored version's order.json by its archive digest; another order's digest finds nothing",
        arguments: BackendFactory.all)
    func versionJSON(_ factory: BackendFactory) async throws {
        let store = try OrderFixtures.store(on: try await factory.make())
        let v1 = try OrderFixtures.archive(updatedAt: "2026-01-15T00:00:00Z")
        let v2 = try OrderFixtures.archive(updatedAt: "2026-01-16T00:00:00Z", status: "completed")
        let other = try OrderFixtures.archive(orderIdentifier: "ORDER-2")
        for archive in [v1, v2, other] { #expect(try await store.saveOrder(signedArchive: archive) == .added) }
        let id = OrderFixtures.identifier()
        let versions = try await store.history(id)
        #expect(versions.count == 2)
        for (version, archive) in zip(versions, [v1, v2]) {
            let zip = try ZipArchive(reading: archive)
            #expect(try await store.orderJSON(id, version: version.archiveSHA256) == zip["order.json"])
        }
        let otherDigest = try #require(try await store.history(OrderFixtures.identifier("ORDER-2")).first?.archiveSHA256)
        #expect(try await store.orderJSON(id, version: otherDigest) == nil)
        #expect(try await store.orderJSON(id, version: "") == nil)
    }

    @Test(
        "a text search: in the order identifier, the merchant's name and identifier, ASCII case ignored",
        arguments: BackendFactory.all)
    func textSearch(_ factory: BackendFactory) async throws {
        let store = try OrderFixtures.store(on: try await factory.make())
        for id in ["ORDER-Alpha", "order-beta", "ORDER-\u{C9}t\u{E9}", "100%_done"] {
            #expect(try await store.saveOrder(signedArchive: OrderFixtures.archive(orderIdentifier: id)) == .added)
        }
        func found(_ text: String) async throws -> [String] {
            var query = OrderQuery(text: text)
            query.limit = 10
            #expect(try await store.countOrders(matching: query) == store.orders(matching: query).count)
            return try await store.orders(matching: query).map(\.identifier.orderIdentifier).sorted()
        }
        #expect(try await found("alpha") == ["ORDER-Alpha"])
        #expect(try await found("ORDER-B") == ["order-beta"])
        // ASCII letters only fold: É is not é.
        #expect(try await found("\u{E9}T\u{E9}") == [])
        #expect(try await found("\u{C9}T\u{E9}") == ["ORDER-\u{C9}t\u{E9}"])
        // % and _ are text, not patterns.
        #expect(try await found("%_") == ["100%_done"])
        #expect(try await found("_") == ["100%_done"])
        // The merchant's display name (Example Shop) and identifier (merchant.com.example.shop).
        #expect(try await found("example SHOP").count == 4)
        #expect(try await found("merchant.com.example").count == 4)
        #expect(try await found("nothing like it") == [])
        #expect(try await found("x\u{0}") == [])
        var typed = OrderQuery(orderTypeIdentifier: "order.com.example.shop", status: "open", text: "beta")
        typed.limit = 10
        #expect(try await store.orders(matching: typed).map(\.identifier.orderIdentifier) == ["order-beta"])
    }

    @Test("identifiers keep every character; one holding U+0000 is never found under its prefix", arguments: BackendFactory.all)
    func identifiers(_ factory: BackendFactory) async throws {
        let store = try OrderFixtures.store(on: try await factory.make())
        for id in ["ORDER-\u{1F600}", "ORDER-e\u{301}", "ORDER-\u{E9}", "ORDER-\u{10FFFD}"] {
            #expect(try await store.saveOrder(signedArchive: OrderFixtures.archive(orderIdentifier: id)) == .added)
        }
        #expect(try await store.orders().count == 4)
        #expect(try await store.saveOrder(signedArchive: OrderFixtures.archive(orderIdentifier: "ORDER")) == .added)
        #expect(try await store.containsOrder(matching: OrderFixtures.identifier("ORDER\u{0}-NUL")) == .notFound)
        // A status or type holding U+0000 matches nothing, not its prefix.
        #expect(try await store.countOrders(matching: OrderQuery(status: "open")) == 5)
        #expect(try await store.countOrders(matching: OrderQuery(status: "open\u{0}x")) == 0)
        #expect(try await store.orders(matching: OrderQuery(orderTypeIdentifier: "order.com.example.shop\u{0}x")).isEmpty)
    }
}
