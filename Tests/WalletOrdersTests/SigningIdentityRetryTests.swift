import Foundation
import OrderPackage
import TestArchiveTable
import Testing
import WalletOrders
import WalletPrimitives

/// A failed key load is retried after a backoff, not kept (issue 53, item 1): meanwhile requests
/// get its error without another attempt; then a fixed key signs, without a new store.
@Suite("Signing identities: a failed load is retried")
struct SigningIdentityRetryTests {
    static let type = TestOrderArchive.orderTypeIdentifier

    @Test("a key file gone: the error for 1 s without another attempt, then the restored key loads; backoff doubles")
    func retriedAfterBackoff() async throws {
        let path = WalletFixtures.path()
        let key = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("order.key")
        try FileManager.default.createDirectory(at: key.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestArchiveTable.directory.appendingPathComponent("pki/order.key"), to: key)
        let clock = TestClock(TestOrderArchive.now)
        let adding = try WalletFixtures.wallet(at: path, clock: clock)
        _ = try await adding.addSigningIdentity(
            orderTypeIdentifier: Self.type, certificate: try TestArchiveTable.data("pki/order.pem"),
            key: .file(path: key.path, passphrase: nil), intermediates: [try TestArchiveTable.data("pki/wwdr.pem")])
        try await adding.close()

        // Another process (a new store object: nothing kept) finds the key gone.
        let moved = key.appendingPathExtension("moved")
        try FileManager.default.moveItem(at: key, to: moved)
        let wallet = try WalletFixtures.wallet(at: path, clock: clock)
        await #expect(throws: OrderSignerError.self) { try await wallet.signingIdentity(for: Self.type) }
        try FileManager.default.moveItem(at: moved, to: key)
        // Within the backoff: the failure's error, no attempt (the key is back, and would load).
        clock.advance(seconds: 0.5)
        await #expect(throws: OrderSignerError.self) { try await wallet.signingIdentity(for: Self.type) }
        clock.advance(seconds: 0.5)
        #expect(try await wallet.signingIdentity(for: Self.type).orderTypeIdentifier == Self.type)

        // Two failures in a row: the second waits 2 s.
        let other = try WalletFixtures.wallet(at: path, clock: clock)
        try FileManager.default.moveItem(at: key, to: moved)
        await #expect(throws: OrderSignerError.self) { try await other.signingIdentity(for: Self.type) }
        clock.advance(seconds: 1)
        await #expect(throws: OrderSignerError.self) { try await other.signingIdentity(for: Self.type) }
        try FileManager.default.moveItem(at: moved, to: key)
        clock.advance(seconds: 1.5)
        await #expect(throws: OrderSignerError.self, "1.5 s into a 2 s backoff") {
            try await other.signingIdentity(for: Self.type)
        }
        clock.advance(seconds: 0.5)
        #expect(try await other.signingIdentity(for: Self.type).orderTypeIdentifier == Self.type)
        try await wallet.close()
        try await other.close()
    }
}
