import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestArchiveTable
import Testing
import WalletOrders

@Suite("The registrations tag")
struct ChangeTagTests {
    /// A device polling with its tag while 4 writers save new versions of 20 orders must hear
    /// of every order changed: the tag never passes a change.
    @Test("never skips a change under concurrent saves")
    func neverSkipsAChange() async throws {
        let fixture = try await ServiceFixture.make(seed: false)
        let identifiers = (0..<20).map { "ORDER-\($0)" }
        for identifier in identifiers {
            _ = try await fixture.wallet.orders.saveOrder(signedArchive: try TestOrderArchive.make(orderIdentifier: identifier))
        }
        let updates = try identifiers.map {
            try TestOrderArchive.make(orderIdentifier: $0, updatedAt: "2026-03-01T00:00:00Z")
        }
        let app = fixture.service().application(host: "127.0.0.1", port: 0)
        let path = ServiceFixture.path("v1", "devices", "phone", "registrations", ServiceFixture.shopType)
        try await app.test(.router) { client in
            for identifier in identifiers {
                let response = try await client.executeRequest(
                    uri: ServiceFixture.path("v1", "devices", "phone", "registrations", ServiceFixture.shopType, identifier),
                    method: .post, headers: [.authorization: "AppleOrder \(ServiceFixture.token)"],
                    body: ByteBuffer(string: #"{"pushToken":"\#(ServiceFixture.pushToken)"}"#))
                #expect(response.status == .created)
            }
            let first = try await Self.poll(client, path: path, tag: nil)
            #expect(Set(first?.orderIdentifiers ?? []) == Set(identifiers))
            var tag = try #require(first?.lastModified)

            let wallet = fixture.wallet
            let writers = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for slice in 0..<4 {
                        let mine = updates.enumerated().filter { $0.offset % 4 == slice }.map(\.element)
                        group.addTask {
                            for archive in mine { _ = try await wallet.orders.saveOrder(signedArchive: archive) }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            // Poll until every change was heard; a change the tag skipped would never be heard
            // again, and the loop would end at its limit with it missing.
            var heard: Set<String> = []
            var polls = 0
            while heard.count < identifiers.count, polls < 5000 {
                if let changes = try await Self.poll(client, path: path, tag: tag) {
                    heard.formUnion(changes.orderIdentifiers)
                    #expect(Int(changes.lastModified)! > Int(tag)!, "the tag moves forward")
                    tag = changes.lastModified
                }
                polls += 1
            }
            try await writers.value
            // One last poll after every writer finished.
            if let changes = try await Self.poll(client, path: path, tag: tag) { heard.formUnion(changes.orderIdentifiers) }
            #expect(heard == Set(identifiers), "missed: \(Set(identifiers).subtracting(heard).sorted())")
        }
    }

    static func poll(_ client: any TestClientProtocol, path: String, tag: String?) async throws -> ChangedOrdersBody? {
        let response = try await client.executeRequest(
            uri: path + (tag.map { "?ordersModifiedSince=\($0)" } ?? ""), method: .get, headers: [:], body: nil)
        if response.status == .noContent { return nil }
        #expect(response.status == .ok)
        return try JSONDecoder().decode(ChangedOrdersBody.self, from: Data(buffer: response.body))
    }
}
