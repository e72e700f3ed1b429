import ArgumentParser
import Foundation
import OrderPackage
import OrderStorage
import WalletOrders
import WalletPrimitives
import WalletWire

/// `orders list`: stored orders, newest first.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List stored orders, most recently updated first.")

    @Option(name: .customLong("type"), help: ArgumentHelp("Only this order type identifier.", valueName: "orderTypeIdentifier"))
    var orderTypeIdentifier: String?

    @Option(help: ArgumentHelp("Only orders with this status (open, completed, cancelled).", valueName: "status"))
    var status: Order.Status?

    @Option(help: ArgumentHelp("Only orders updated at or after this RFC 3339 instant.", valueName: "date"))
    var since: String?

    @Option(parsing: .unconditional, help: "At most this many orders.")
    var limit: Int = 100

    @Option(parsing: .unconditional, help: "Skip this many orders (for the next page).")
    var offset: Int = 0

    @Flag(help: "Print one JSON object per order per line.")
    var json = false

    @OptionGroup var clientOptions: ClientOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var trust: TrustOptions

    func validate() throws {
        if let since, RFC3339Timestamp(since) == nil {
            throw ValidationError("--since needs an RFC 3339 date-time, not \(MessageText.quote(since)).")
        }
        if limit < 0 { throw ValidationError("--limit needs a count of 0 or more, not \(limit).") }
        if offset < 0 { throw ValidationError("--offset needs a count of 0 or more, not \(offset).") }
    }

    func run() async throws {
        let query = OrderQuery(
            orderTypeIdentifier: orderTypeIdentifier, status: status?.rawValue,
            updatedSince: since.flatMap(RFC3339Timestamp.init),
            limit: limit, offset: offset)
        let orderStore = try await store.orderReader(client: clientOptions, for: "list")
        let orders = try await orderStore.orders(matching: query)
        for order in orders {
            if json {
                Output.json(WireStoredOrder(order))
            } else {
                let status = order.status.padding(toLength: 9, withPad: " ", startingAt: 0)
                Output.line("\(order.updatedAt.text)  \(status)  \(order.identifier)  \(order.merchantDisplayName)")
            }
        }
    }
}

extension Order.Status: ExpressibleByArgument {}
