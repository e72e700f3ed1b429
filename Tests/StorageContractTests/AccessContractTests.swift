import Foundation
import StorageContract
import Testing
import WalletCore
import WalletStorage

/// Restriction, authorization, grants, entitlements and history cursors, as every backend keeps them.
@Suite("Contract: access")
struct AccessContractTests {
    static let client: ClientIdentifier = "com.example.budget"
    static let time = Date(timeIntervalSince1970: 1_790_000_000)

    @Test("restriction is set, read and lifted", arguments: BackendFactory.all)
    func restriction(_ factory: BackendFactory) async throws {
        let access = try await factory.make().access
        #expect(try await access.restriction(of: .orders) == nil)
        try await access.setRestricted(.orders, true, at: Self.time)
        #expect(try await access.restriction(of: .orders) == Self.time)
        #expect(try await access.restriction(of: .financialData) == nil)
        try await access.setRestricted(.orders, false, at: Self.time)
        #expect(try await access.restriction(of: .orders) == nil)
    }

    @Test("orderTypeAccess reads the restriction of orders and one entitlement together", arguments: BackendFactory.all)
    func orderTypeAccess(_ factory: BackendFactory) async throws {
        let access = try await factory.make().access
        #expect(
            try await access.orderTypeAccess(of: Self.client, to: "order.com.a")
                == OrderTypeAccess(restrictedSince: nil, isEntitled: false))
        try await access.entitle(Self.client, toOrderTypes: ["order.com.a"])
        try await access.entitle("com.example.other", toOrderTypes: ["order.com.b"])
        #expect(try await access.orderTypeAccess(of: Self.client, to: "order.com.a").isEntitled)
        // Another client's type, a prefix of the type, and a type with U+0000 are not entitled.
        #expect(try await access.orderTypeAccess(of: Self.client, to: "order.com.b").isEntitled == false)
        #expect(try await access.orderTypeAccess(of: Self.client, to: "order.com").isEntitled == false)
        #expect(try await access.orderTypeAccess(of: Self.client, to: "order.com.a\u{0}").isEntitled == false)
        try await access.setRestricted(.orders, true, at: Self.time)
        #expect(
            try await access.orderTypeAccess(of: Self.client, to: "order.com.a")
                == OrderTypeAccess(restrictedSince: Self.time, isEntitled: true))
        // Only the restriction of orders counts.
        try await access.setRestricted(.orders, false, at: Self.time)
        try await access.setRestricted(.financialData, true, at: Self.time)
        #expect(try await access.orderTypeAccess(of: Self.client, to: "order.com.a").restrictedSince == nil)
    }

    @Test("a decision is recorded once; grants, revocations and denials change it", arguments: BackendFactory.all)
    func lifeCycle(_ factory: BackendFactory) async throws {
        let access = try await factory.make().access
        let (a, b) = (UUID(), UUID())
        #expect(try await access.access(for: Self.client).status == .notDetermined)
        let decided = try await access.recordDecision(.authorized([AccountGrant(accountID: a)]), for: Self.client, at: Self.time)
        #expect(decided.status == .authorized && decided.accounts.keys.sorted() == [a])
        let again = try await access.recordDecision(.denied, for: Self.client, at: Self.time)
        #expect(again.status == .authorized)
        try await access.grant([AccountGrant(accountID: b, earliestDate: Self.time)], to: Self.client, at: Self.time)
        #expect(try await access.access(for: Self.client).accounts[b]?.earliestDate == Self.time)
        try await access.revoke(Self.client, accounts: [a], at: Self.time)
        #expect(try await access.access(for: Self.client).accounts.keys.sorted() == [b])
        try await access.deny(Self.client, at: Self.time)
        #expect(try await access.access(for: Self.client).status == .denied)
        #expect(try await access.clients().map(\.client) == [Self.client])
    }

    @Test(
        "every write of a client's status, accounts or order types moves the access version; reads do not",
        arguments: BackendFactory.all)
    func version(_ factory: BackendFactory) async throws {
        let backend = try await factory.make()
        let executor = try #require(backend as? any SQLStorageBackend).sqlExecutor
        let access = backend.access
        var last = try await executor.read { try await SQLAccessRepository.version(on: $0) }
        func expectMoved(_ what: Comment, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let now = try await executor.read { try await SQLAccessRepository.version(on: $0) }
            #expect(now > last, what, sourceLocation: sourceLocation)
            last = now
        }
        let (a, b) = (UUID(), UUID())
        _ = try await access.recordDecision(.authorized([AccountGrant(accountID: a)]), for: Self.client, at: Self.time)
        try await expectMoved("recordDecision(.authorized)")
        _ = try await access.recordDecision(.denied, for: "com.example.other", at: Self.time)
        try await expectMoved("recordDecision(.denied)")
        try await access.grant([AccountGrant(accountID: b, earliestDate: Self.time)], to: Self.client, at: Self.time)
        try await expectMoved("grant")
        try await access.revoke(Self.client, accounts: [a], at: Self.time)
        try await expectMoved("revoke of one account")
        try await access.entitle(Self.client, toOrderTypes: ["order.com.a"])
        try await expectMoved("entitle")
        try await access.removeEntitlements(Self.client, toOrderTypes: ["order.com.a"])
        try await expectMoved("removeEntitlements")
        try await backend.apiKeys.insertKey(
            APIKey(identifier: "k1", name: "Key", createdAt: Self.time, orderTypeIdentifiers: ["order.com.b"]),
            secretDigest: String(repeating: "0", count: 64))
        try await expectMoved("an API key's order types")
        try await backend.withTransaction { transaction in
            try await transaction.access.grant([AccountGrant(accountID: a)], to: Self.client, at: Self.time)
        }
        try await expectMoved("grant in a unit of work")
        try await access.deny(Self.client, at: Self.time)
        try await expectMoved("deny")
        try await access.revoke("com.example.other", accounts: [], at: Self.time)
        try await expectMoved("revoke of everything")

        _ = try await access.access(for: Self.client)
        _ = try await access.clients()
        _ = try await access.orderTypeAccess(of: Self.client, to: "order.com.b")
        _ = try await access.createCursor(for: Self.client, stream: "transactions", at: Self.time)
        #expect(try await executor.read { try await SQLAccessRepository.version(on: $0) } == last)
    }

    @Test("entitlements are added and removed", arguments: BackendFactory.all)
    func entitlements(_ factory: BackendFactory) async throws {
        let access = try await factory.make().access
        try await access.entitle(Self.client, toOrderTypes: ["order.com.a", "order.com.b"])
        #expect(try await access.access(for: Self.client).orderTypeIdentifiers == ["order.com.a", "order.com.b"])
        try await access.removeEntitlements(Self.client, toOrderTypes: ["order.com.a"])
        #expect(try await access.access(for: Self.client).orderTypeIdentifiers == ["order.com.b"])
    }

    @Test("cursors belong to one client and stream; revoking everything deletes them", arguments: BackendFactory.all)
    func cursors(_ factory: BackendFactory) async throws {
        let access = try await factory.make().access
        try await access.grant([AccountGrant(accountID: UUID())], to: Self.client, at: Self.time)
        let cursor = try await access.createCursor(for: Self.client, stream: "accounts", at: Self.time)
        #expect(try await access.isCursorValid(cursor, for: Self.client, stream: "accounts"))
        #expect(try await access.isCursorValid(cursor, for: Self.client, stream: "transactions/x") == false)
        #expect(try await access.isCursorValid(cursor, for: "com.example.other", stream: "accounts") == false)
        let generation = try await access.storeGeneration()
        #expect(try await access.storeGeneration() == generation && !generation.isEmpty)
        try await access.revoke(Self.client, accounts: [], at: Self.time)
        #expect(try await access.isCursorValid(cursor, for: Self.client, stream: "accounts") == false)
    }
}
