// snippet.hide
// SavingAndCheckingOrders: saving, verifying alone, checking.
import Foundation
import WalletOrders

func log(_ code: String, _ path: String?, _ message: String) {}

func save(wallet: WalletStore, archive: Data) async throws {
    // snippet.show
    // snippet.save
    do {
        switch try await wallet.orders.saveOrder(signedArchive: archive) {
        case .added: break  // new, newer, or the same bytes again
        case .newerExisting: break  // a newer version is stored; nothing was written
        case .cancelled: break  // the consent prompt declined
        }
    } catch let error as OrderStoreError {
        // store.invalidArchive carries the verification report; store.conflictingVersion means the
        // same updatedAt with other bytes; store.signerChanged another signing team.
        log(error.code, error.path ?? "-", error.message)
    }
    // snippet.end
    // snippet.hide
}

func verify(archive: Data) {
    // snippet.show
    // snippet.verify
    let report = OrderVerifier().verify(archive)
    for issue in report.errors { print(issue.code.rawValue, issue.path ?? "-", issue.message) }
    // snippet.end
    // snippet.hide
}

func check(wallet: WalletStore, timestampFromDevice: RFC3339Timestamp) async throws {
    // snippet.show
    // snippet.check
    let id = FullyQualifiedOrderIdentifier(orderTypeIdentifier: "order.com.example.shop", orderIdentifier: "ORDER-123")
    switch try await wallet.orders.containsOrder(matching: id, updatedAt: timestampFromDevice) {
    case .exists: break  // the same version
    case .newerExists: break  // the store has a later one
    case .olderExists: break  // the device has a later one
    case .notFound: break
    }
    // snippet.end
    // snippet.hide
}
