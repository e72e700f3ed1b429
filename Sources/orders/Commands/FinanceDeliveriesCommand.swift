import ArgumentParser
import Foundation
import WalletOrders
import WalletPrimitives
import WalletWire

/// `orders finance deliveries list|show`: clients' background-delivery endpoints, for operators
/// (docs/background-delivery.md). Clients register them through `orders serve`; secrets are
/// never printed.
struct FinanceDeliveriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries",
        abstract: "List clients' background-delivery endpoints, or show one.",
        subcommands: [List.self, Show.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List every endpoint: client, URL, types and frequencies, state, last delivery and failure.",
            discussion: CommandGuide.discussion("finance deliveries list"))

        @Flag(help: "Print JSON Lines.")
        var json = false

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let wallet = try await store.wallet()
            var table = TextTable("ENDPOINT", "CLIENT", "URL", "TYPES", "STATE", "LAST DELIVERY", "LAST FAILURE", "PENDING")
            for endpoint in try await wallet.deliveryEndpoints() {
                if json {
                    Output.json(WireDeliveryEndpoint(endpoint))
                    continue
                }
                table.append([
                    endpoint.id.uuidString, endpoint.client.rawValue, endpoint.url.text, Self.types(endpoint),
                    endpoint.disabled == nil ? "active" : "disabled",
                    endpoint.lastDelivery.map { RFC3339Timestamp($0.at).text } ?? "-",
                    endpoint.lastFailure.map { RFC3339Timestamp($0.at).text } ?? "-", String(endpoint.pendingDeliveries),
                ])
            }
            if !json { table.print() }
        }

        /// `transactions:hourly,accounts:daily`.
        static func types(_ endpoint: DeliveryEndpoint) -> String {
            endpoint.types.map { "\($0.rawValue):\(endpoint.frequencies[$0]?.rawValue ?? "?")" }.joined(separator: ",")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one endpoint with its last delivery and failure.",
            discussion: CommandGuide.discussion("finance deliveries show"))

        @Argument(help: ArgumentHelp("The endpoint's id (from `list`).", valueName: "endpoint"))
        var endpoint: String

        @Flag(help: "Print JSON.")
        var json = false

        @OptionGroup var store: StoreOptions

        func run() async throws {
            guard let id = UUID(uuidString: endpoint) else {
                throw CommandFailure(
                    "\(MessageText.quote(endpoint)) is not an endpoint id (a UUID; `orders finance deliveries list`)")
            }
            let wallet = try await store.wallet()
            let found = try await wallet.deliveryEndpoint(id)
            if json {
                Output.json(WireDeliveryEndpoint(found))
                return
            }
            Output.line("endpoint: \(found.id.uuidString)")
            Output.line("client: \(found.client.rawValue)")
            Output.line("url: \(found.url.text)")
            Output.line("types: \(List.types(found))")
            Output.line("created: \(RFC3339Timestamp(found.createdAt).text)")
            if let disabled = found.disabled {
                Output.line("state: disabled since \(RFC3339Timestamp(disabled.at).text) (\(disabled.reason))")
            } else {
                Output.line("state: active")
            }
            if let delivery = found.lastDelivery {
                Output.line(
                    "last delivery: \(RFC3339Timestamp(delivery.at).text) \(delivery.deliveryID.uuidString) "
                        + delivery.types.map(\.rawValue).joined(separator: ","))
            } else {
                Output.line("last delivery: -")
            }
            if let failure = found.lastFailure {
                Output.line(
                    "last failure: \(RFC3339Timestamp(failure.at).text) \(failure.deliveryID.uuidString) \(MessageText.quote(failure.reason))"
                )
            } else {
                Output.line("last failure: -")
            }
            Output.line("pending deliveries: \(found.pendingDeliveries)")
        }
    }
}
