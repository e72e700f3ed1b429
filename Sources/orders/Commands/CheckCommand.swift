import ArgumentParser
import Foundation
import OrderPackage
import OrderStorage
import WalletOrders
import WalletPrimitives
import WalletWire

/// `orders check`: FinanceKit's containsOrder.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Say whether an order is stored: exists, newerExists, olderExists or notFound.",
        discussion: CommandGuide.discussion(
            "check",
            """
            With --updated-date, compares the stored updatedAt with it exactly (RFC 3339, any offset, \
            fractions to the nanosecond). With --client (or ORDERS_CLIENT), order types the client is not \
            entitled to answer notFound, as FinanceKit does. Exit status: 0 when a version is stored, \
            1 for notFound, 2 on errors.
            """)
    )

    @OptionGroup var order: OrderIdentifierOptions

    @Option(
        help: ArgumentHelp("Compare the stored updatedAt with this date (a day or an RFC 3339 date-time).", valueName: "date"),
        transform: DateArgument.parse)
    var updatedDate: RFC3339Timestamp?

    @Flag(help: "Print a JSON object instead of one word.")
    var json = false

    @OptionGroup var clientOptions: ClientOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let wallet = try await store.wallet()
        let result: ContainsOrderResult
        let timestamp = updatedDate
        if let client = try clientOptions.optionalIdentifier {
            // FinanceKit's rules: notFound for order types the client is not entitled to.
            let finance = wallet.financeStore(for: client)
            if let timestamp {
                result = try await finance.containsOrder(matching: order.identifier, updatedAt: timestamp)
            } else {
                result = try await finance.containsOrder(matching: order.identifier)
            }
        } else {
            if let timestamp {
                result = try await wallet.orders.containsOrder(matching: order.identifier, updatedAt: timestamp)
            } else {
                result = try await wallet.orders.containsOrder(matching: order.identifier)
            }
        }
        if json {
            Output.json(WireOrderAnswer(order.identifier, result: result))
        } else {
            Output.line(result.rawValue)
        }
        if result == .notFound { throw ExitCode(ExitStatus.invalid) }
    }
}
