// snippet.hide
// Signing identities: the certificate and where the key is, checked and stored (docs/authoring.md).
import Foundation
import WalletOrders

func holdSigningIdentity(wallet: WalletStore, certificatePEM: Data) async throws {
    // snippet.show
    let added = try await wallet.addSigningIdentity(
        orderTypeIdentifier: "order.com.example.shop", certificate: certificatePEM,
        key: .pkcs11(uri: "pkcs11:token=shop;object=order-key", module: nil, pin: .environment(name: "SHOP_PIN")))
    let identity = try await wallet.signingIdentity(for: "order.com.example.shop")  // loaded once, kept
    // snippet.hide
    _ = (added, identity)
}
