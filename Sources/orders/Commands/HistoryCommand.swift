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
        discussion: CommandGuide.discussion("history", "Exit status: 0 listed, 1 not stored, 2 on errors."))

    @OptionGroup var order: OrderIdentifierOptions

    @Flag(help: "Print one JSON object per version per line.")
    var json = false

    @OptionGroup var clientOptions: ClientOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let orderStore = try await store.orderReader(client: clientOptions)
        let versions = try await orderStore.history(order.identifier)
        guard !versions.isEmpty else {
            Output.error("\(order.identifier.clippedDescription) is not in the store")
            throw ExitCode(ExitStatus.invalid)
        }
        if json {
            for version in versions { Output.json(WireStoredOrder(version)) }
            return
        }
        var table = TextTable("UPDATED", "STATUS", "ADDED", "REPLACED", "SHA-256")
        for version in versions {
            table.append([
                version.updatedAt.text, version.status, RFC3339Timestamp(version.addedAt).text,
                version.replacedAt.map { RFC3339Timestamp($0).text } ?? "current", String(version.archiveSHA256.prefix(12)),
            ])
        }
        table.print()
    }
}
