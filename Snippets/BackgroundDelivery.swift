// snippet.hide
// BackgroundDelivery: enabling it for a client, and a receiver checking a delivery's signature.
import Foundation
import WalletOrders

func enable(wallet: WalletStore, keep: (String?) -> Void) async throws {
    // snippet.show
    // snippet.enable
    let store = wallet.financeStore(for: "com.example.budget")
    let enabled = try await store.enableBackgroundDelivery(
        for: [.transactions], frequency: .hourly, url: "https://budget.example/wallet-deliveries")
    keep(enabled.secret)  // shown once: it signs every delivery
    // snippet.end
    // snippet.hide
}

// The import belongs to the snippet a reader copies: here, not at the top.
// swift-format-ignore: OrderedImports
// snippet.show
// snippet.verify
import WalletOutbox

// snippet.hide
func receive(header: String, body: Data, secret: String) -> Bool {
    // snippet.show
    let valid = WebhookSignature.isValid(header, secret: secret, body: body, now: Date())
    // snippet.end
    // snippet.hide
    return valid
}
