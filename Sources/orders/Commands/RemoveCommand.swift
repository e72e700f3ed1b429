import ArgumentParser
import Foundation
import OrderPackage
import OrderStorage
import WalletOrders
import WalletWire

/// `orders remove`: delete an order and its history.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Delete a stored order and all its versions.",
        discussion: CommandGuide.discussion("remove", "Exit status: 0 removed, 1 not stored, 2 on errors."))

    @OptionGroup var order: OrderIdentifierOptions

    @Flag(help: "Print a JSON object instead of a sentence.")
    var json = false

    @OptionGroup var clientOptions: ClientOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let orderStore = try await store.orderReader(client: clientOptions, writes: true)
        let removed = try await orderStore.removeOrder(order.identifier)
        if json {
            Output.json(WireOrderAnswer(order.identifier, removed: removed))
        } else if removed {
            Output.line("removed \(order.identifier.clippedDescription)")
        } else {
            Output.error("\(order.identifier.clippedDescription) is not in the store")
        }
        if !removed { throw ExitCode(ExitStatus.invalid) }
    }
}
