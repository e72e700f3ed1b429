import Foundation
import OrderPackage
import OrderStorage
import TestArchiveTable

/// Signed archives built on the fly from TestArchives/sources/small with the test PKI: one
/// order in as many versions as a test needs.
enum OrderFixtures {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21, inside the PKI's validity
    static let shop = "order.com.example.shop"

    static func identifier(_ orderIdentifier: String = "ORDER-1") -> FullyQualifiedOrderIdentifier {
        FullyQualifiedOrderIdentifier(orderTypeIdentifier: shop, orderIdentifier: orderIdentifier)
    }

    /// A signed archive of the small order with the given fields.
    static func archive(
        orderIdentifier: String = "ORDER-1", updatedAt: String = "2026-01-15T09:30:00Z", status: String = "open",
        signer: String = "order"
    ) throws -> Data {
        var files = try sources()
        var order = try JSONSerialization.jsonObject(with: files["order.json"] ?? Data()) as? [String: Any] ?? [:]
        order["orderIdentifier"] = orderIdentifier
        order["createdAt"] = "2026-01-01T00:00:00Z"
        order["updatedAt"] = updatedAt
        order["status"] = status
        files["order.json"] = try JSONSerialization.data(withJSONObject: order, options: [.sortedKeys])
        let signer = try OrderSigner(
            certificate: TestArchiveTable.data("pki/\(signer).pem"), privateKey: TestArchiveTable.data("pki/\(signer).key"),
            intermediates: [TestArchiveTable.data("pki/wwdr.pem")])
        return try OrderPackageBuilder(signer: signer, clock: { now }).build(files: files)
    }

    static func sources() throws -> [String: Data] {
        let folder = TestArchiveTable.directory.appendingPathComponent("sources/small")
        var files: [String: Data] = [:]
        for name in ["order.json", "logo.png", "item.png"] {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    static func verifier() throws -> OrderVerifier {
        OrderVerifier(trustStore: try TestArchiveTable.trustStore(), clock: { now })
    }

    /// A fresh store in a temporary folder.
    static func store(consent: any OrderConsentPrompt = AddWithoutAsking()) throws -> (OrderStore, SQLiteOrderRepository, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("order-store-\(UUID().uuidString)")
        let path = folder.appendingPathComponent("orders.sqlite")
        let repository = try SQLiteOrderRepository(path: path.path)
        return (OrderStore(repository: repository, verifier: try verifier(), consent: consent, clock: { now }), repository, path)
    }
}

/// A consent prompt that answers from a script and remembers what it was asked.
actor ScriptedConsent: OrderConsentPrompt {
    private var answers: [Bool]
    private(set) var asked: [String] = []

    init(_ answers: [Bool]) {
        self.answers = answers
    }

    func shouldAdd(_ order: Order, report: VerificationReport) async -> Bool {
        asked.append(order.updatedAt.text)
        return answers.isEmpty ? false : answers.removeFirst()
    }
}
