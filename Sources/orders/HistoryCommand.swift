import ArgumentParser
import Foundation
import OrderPackage
import OrderStorage
import WalletOrders
import WalletPrimitives
import WalletWire

/// `orders history`: every stored version of one order.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List every stored version of an order, oldest first; the last is current.",
        discussion: "Exit status: 0 listed, 1 not stored, 2 on errors.")

    @OptionGroup var order: OrderIdentifierOptions

    @Flag(help: "Print one JSON object per version per line.")
    var json = false

    @OptionGroup var clientOptions: ClientOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var trust: TrustOptions

    func run() async throws {
        let orderStore = try await store.orderReader(client: clientOptions, for: "history")
        let versions = try await orderStore.history(order.identifier)
        guard !versions.isEmpty else {
            Output.error("\(order.identifier.clippedDescription) is not in the store")
            throw ExitCode(ExitStatus.invalid)
        }
        for version in versions {
            if json {
                Output.json(WireStoredOrder(version))
            } else {
                let replaced = version.replacedAt.map { "replaced \(RFC3339Timestamp($0).text)" } ?? "current"
                let status = version.status.padding(toLength: 9, withPad: " ", startingAt: 0)
                Output.line(
                    "\(version.updatedAt.text)  \(status)  added \(RFC3339Timestamp(version.addedAt).text)  \(replaced)  \(version.archiveSHA256.prefix(12))"
                )
            }
        }
    }
}
