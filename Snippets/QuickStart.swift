// snippet.hide
// The README's "As a library" block.
import Foundation
// snippet.show
import WalletOrders

// snippet.hide
func quickStart(archiveBytes: Data) async throws {
    // snippet.show
    let wallet = try WalletStore(path: "/var/lib/wallet/store.sqlite")  // embedded SQLite
    switch try await wallet.orders.saveOrder(signedArchive: archiveBytes) {  // verifies, then stores
    case .added: print("stored")
    case .newerExisting: print("a newer version is already stored")
    case .cancelled: print("declined")
    }
    let id = FullyQualifiedOrderIdentifier(orderTypeIdentifier: "order.com.example.shop", orderIdentifier: "ORDER-123")
    let state = try await wallet.orders.containsOrder(matching: id)  // .exists, .notFound, …
    let report = OrderVerifier().verify(archiveBytes)  // verification alone: report.errors with code and path
    // snippet.hide
    _ = (state, report)
}
