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
        abstract: "List stored orders, most recently updated first.", discussion: CommandGuide.discussion("list"))

    @Option(name: .customLong("type"), help: ArgumentHelp("Only this order type identifier.", valueName: "orderTypeIdentifier"))
    var orderTypeIdentifier: String?

    @Option(help: ArgumentHelp("Only orders with this status (open, completed, cancelled).", valueName: "status"))
    var status: Order.Status?

    @Option(
        help: ArgumentHelp("Only orders updated at or after this date (a day or an RFC 3339 date-time).", valueName: "date"),
        transform: DateArgument.parse)
    var since: RFC3339Timestamp?

    @Option(
        help: ArgumentHelp(
            "Only orders whose identifier, merchant name or merchant identifier contains this text (ASCII case ignored).",
            valueName: "text"))
    var search: String?

    @Option(parsing: .unconditional, help: "At most this many orders (the human output says how many more there are).")
    var limit: Int = 100

    @Option(parsing: .unconditional, help: "Skip this many orders (for the next page).")
    var offset: Int = 0

    @Flag(help: "Print one JSON object per order per line.")
    var json = false

    @OptionGroup var locale: LocaleOptions
    @OptionGroup var clientOptions: ClientOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit needs a count of 0 or more, not \(limit).") }
        if offset < 0 { throw ValidationError("--offset needs a count of 0 or more, not \(offset).") }
    }

    func run() async throws {
        let query = OrderQuery(
            orderTypeIdentifier: orderTypeIdentifier, status: status?.rawValue, updatedSince: since, limit: limit,
            offset: offset, text: search)
        let orderStore = try await store.orderReader(client: clientOptions)
        let orders = try await orderStore.orders(matching: query)
        if json {
            for order in orders { Output.json(WireStoredOrder(order)) }
            return
        }
        var table = TextTable("UPDATED", "STATUS", "ORDER", "MERCHANT")
        for order in orders {
            let strings = locale.table(for: try await orderStore.archive(order.identifier))
            table.append([
                order.updatedAt.text, order.status, order.identifier.description,
                strings.text(for: order.merchantDisplayName),
            ])
        }
        table.print()
        // A page that may not be the whole listing says how much is left and how to see it.
        guard orders.count == limit || offset > 0 else { return }
        let total = try await orderStore.countOrders(matching: query)
        let remaining = total - offset - orders.count
        if remaining > 0 {
            Output.line(
                "… \(remaining) more \(remaining == 1 ? "order" : "orders") (\(total) in all); "
                    + "see them with --offset \(offset + orders.count) or --limit \(total - offset)")
        }
    }
}

extension Order.Status: ExpressibleByArgument {}
