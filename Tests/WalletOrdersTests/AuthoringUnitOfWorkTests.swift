import Foundation
import OrderPackage
import OrderStorage
import Synchronization
import TestArchiveTable
import Testing
@_spi(Testing) import WalletOrders
import WalletPrimitives

/// Authoring as one unit of work (issue 54): the signed package is checked from its entries in
/// memory, not read back — and what goes wrong between signing and the save is still caught;
/// the save writes only while the version read is current.
@Suite("Authoring: one read, a package checked in memory, a save that compares")
struct AuthoringUnitOfWorkTests {
    static let webService = WebServiceURLPolicy(serviceURL: "https://shop.example.com/wallet/")
    static let identifier = FullyQualifiedOrderIdentifier(
        orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier, orderIdentifier: "ORDER-123")

    /// A store with the test type's identity and a first version authored at the clock's time.
    static func wallet(
        clock: TestClock, fault: (@Sendable (SignedOrderPackage) async throws -> SignedOrderPackage)? = nil
    ) async throws -> WalletStore {
        var configuration = try WalletFixtures.configuration(clock: clock)
        let wallet = try WalletStore(path: WalletFixtures.path(), configuration: configuration)
        _ = try await wallet.addSigningIdentity(
            orderTypeIdentifier: TestOrderArchive.orderTypeIdentifier, certificate: try TestArchiveTable.data("pki/order.pem"),
            key: .file(path: TestArchiveTable.directory.appendingPathComponent("pki/order.key").path, passphrase: nil),
            intermediates: [try TestArchiveTable.data("pki/wwdr.pem")], activation: .immediately)
        let sources = TestArchiveTable.directory.appendingPathComponent("sources/small")
        _ = try await wallet.authorOrder(
            identifier,
            content: .replace(
                orderJSON: try Data(contentsOf: sources.appendingPathComponent("order.json")),
                resources: try OrderPackageBuilder.sources(in: sources)), webService: webService)
        guard let fault else { return wallet }
        try await wallet.close()
        configuration.authoringFault = fault
        return try WalletStore(path: wallet.backend.location, configuration: configuration)
    }

    @Test(
        "a change between signing and the save — an entry's bytes, another signature — is refused with its finding; nothing saved",
        arguments: ["order.json", "signature", "logo.png"])
    func faultAfterSigning(_ entry: String) async throws {
        let clock = TestClock()
        let wallet = try await Self.wallet(clock: clock) { package in
            switch entry {
            case "signature":
                // A signature over another manifest, by the same identity.
                let other = try TestOrderArchive.make(orderIdentifier: "OTHER")
                return try package.replacing("signature", with: try #require(try ZipArchive(reading: other)["signature"]))
            default:
                var bytes = try #require(package.entries[entry])
                bytes[bytes.count / 2] ^= 0x01
                return try package.replacing(entry, with: bytes)
            }
        }
        clock.advance(seconds: 10)
        let before = try await wallet.orders.history(Self.identifier)
        let error = await #expect(throws: OrderStoreError.self) {
            _ = try await wallet.authorOrder(
                Self.identifier, content: .mergePatch(Data(#"{"orderNumber":"P-1"}"#.utf8)), webService: Self.webService)
        }
        guard case .invalidArchive(let report)? = error else {
            Issue.record("not an invalid archive: \(String(describing: error))")
            return
        }
        let codes = report.errors.map(\.code.rawValue)
        let expected =
            entry == "signature" ? codes.contains { $0.hasPrefix("signature.") } : codes.contains("manifest.hashMismatch")
        #expect(expected, "\(codes)")
        #expect(try await wallet.orders.history(Self.identifier).map(\.archiveSHA256) == before.map(\.archiveSHA256))
        try await wallet.close()
    }

    @Test("a version stored between the read and the save is not written over: the patch is made again from it")
    func versionStoredMeanwhile() async throws {
        let clock = TestClock()
        let uploaded = Mutex<Data?>(nil)
        let storedMeanwhile = Mutex(false)
        let holder = WalletHolder()
        let wallet = try await Self.wallet(clock: clock) { package in
            // Once: an upload of a version newer than the one read, older than the one authored.
            if let archive = uploaded.withLock({ $0 }), !storedMeanwhile.withLock({ $0 }) {
                storedMeanwhile.withLock { $0 = true }
                let saved = try await holder.wallet?.orders.saveOrder(signedArchive: archive)
                #expect(saved == .added)
            }
            return package
        }
        holder.wallet = wallet
        let first = try #require(try await wallet.orders.order(Self.identifier))
        let between = RFC3339Timestamp(clock.now().addingTimeInterval(5)).text
        uploaded.withLock {
            $0 = try? TestOrderArchive.make(orderIdentifier: "ORDER-123", updatedAt: between, status: "completed")
        }
        clock.advance(seconds: 10)
        let authored = try await wallet.authorOrder(
            Self.identifier, content: .mergePatch(Data(#"{"orderNumber":"P-1"}"#.utf8)), webService: Self.webService)
        #expect(storedMeanwhile.withLock { $0 })
        let history = try await wallet.orders.history(Self.identifier)
        #expect(history.map(\.updatedAt.text) == [first.updatedAt.text, between, authored.updatedAt.text])
        // Made from the upload: its status, with the patch.
        let order = try #require(try await wallet.orders.decodedOrder(Self.identifier))
        #expect(order.status.rawValue == "completed")
        #expect(order.orderNumber == "P-1")
        try await wallet.close()
    }
}

/// The wallet a test's hook reaches, set once the wallet exists.
final class WalletHolder: Sendable {
    private let value = Mutex<WalletStore?>(nil)
    var wallet: WalletStore? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
