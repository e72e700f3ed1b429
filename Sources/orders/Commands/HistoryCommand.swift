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
        let wallet = try await store.wallet()
        let reader: any OrderReader =
            try clientOptions.optionalIdentifier.map { wallet.merchantOrders(for: $0) } ?? wallet.orders
        let versions = try await reader.history(order.identifier)
        guard !versions.isEmpty else {
            Output.error("\(order.identifier.clippedDescription) is not in the store")
            throw ExitCode(ExitStatus.invalid)
        }
        if json {
            for version in versions { Output.json(WireStoredOrder(version)) }
            return
        }
        // Which tracking event made a version (docs/tracking.md), else which API key uploaded it.
        let events = Dictionary(
            try await wallet.appliedTrackingEvents(of: order.identifier).map { ($0.archiveSHA256, $0) },
            uniquingKeysWith: { first, _ in first })
        var table = TextTable("UPDATED", "STATUS", "ADDED", "REPLACED", "MADE BY", "SHA-256")
        for version in versions {
            let madeBy =
                events[version.archiveSHA256].map {
                    "\($0.provider) event \($0.eventID), received \(RFC3339Timestamp($0.receivedAt).text)"
                } ?? version.uploadedBy.map { "API key \($0)" } ?? "-"
            table.append([
                version.updatedAt.text, version.status, RFC3339Timestamp(version.addedAt).text,
                version.replacedAt.map { RFC3339Timestamp($0).text } ?? "current", madeBy,
                String(version.archiveSHA256.prefix(12)),
            ])
        }
        table.print()
    }
}
