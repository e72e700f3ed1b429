import Foundation
import OrderPackage

/// Signed archives built on the fly from TestArchives/sources/small with the test PKI: one order
/// in as many versions as a test needs.
public enum TestOrderArchive {
    /// Inside the test PKI's validity; use it as the verifier's clock.
    public static let now = Date(timeIntervalSince1970: 1_790_000_000)
    public static let orderTypeIdentifier = "order.com.example.shop"

    /// The small order with these fields, signed by `pki/<signer>.pem`. `createdAt` is
    /// 2026-01-01T00:00:00Z, so any later `updatedAt` is valid. `files` changes the package's
    /// files (order.json, logo.png, item.png) before it is signed.
    public static func make(
        orderIdentifier: String = "ORDER-1", updatedAt: String = "2026-01-15T09:30:00Z", status: String = "open",
        signer: String = "order", edit: (inout [String: Any]) -> Void = { _ in },
        files editFiles: (inout [String: Data]) -> Void = { _ in }
    ) throws -> Data {
        let folder = TestArchiveTable.directory.appendingPathComponent("sources/small")
        var files: [String: Data] = [:]
        for name in ["order.json", "logo.png", "item.png"] {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        var order = try JSONSerialization.jsonObject(with: files["order.json"] ?? Data()) as? [String: Any] ?? [:]
        order["orderIdentifier"] = orderIdentifier
        order["createdAt"] = "2026-01-01T00:00:00Z"
        order["updatedAt"] = updatedAt
        order["status"] = status
        edit(&order)
        files["order.json"] = try JSONSerialization.data(withJSONObject: order, options: [.sortedKeys])
        editFiles(&files)
        let signingIdentity = try OrderSigner(
            certificate: TestArchiveTable.data("pki/\(signer).pem"), privateKey: TestArchiveTable.data("pki/\(signer).key"),
            intermediates: [TestArchiveTable.data("pki/wwdr.pem")])
        return try OrderPackageBuilder(signer: signingIdentity, clock: { now }).build(files: files)
    }

    /// A verifier trusting the test root, with the clock at ``now``.
    public static func verifier() throws -> OrderVerifier {
        OrderVerifier(trustStore: try TestArchiveTable.trustStore(), clock: { now })
    }
}
