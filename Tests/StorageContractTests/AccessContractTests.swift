import Foundation
import StorageContract
import Testing
import WalletCore

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
