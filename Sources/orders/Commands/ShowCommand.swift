import ArgumentParser
import Foundation
import OrderPackage
import OrderStorage
import WalletOrders
import WalletPrimitives
import WalletWire

/// `orders show`: one stored order in detail.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a stored order: summary, fulfillments, payment total and versions.",
        discussion: CommandGuide.discussion("show", "Exit status: 0 shown, 1 not stored, 2 on errors."))

    @OptionGroup var order: OrderIdentifierOptions

    @Flag(help: "Print a JSON object: the stored facts, the versions and the order itself.")
    var json = false

    @OptionGroup var locale: LocaleOptions
    @OptionGroup var clientOptions: ClientOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let orderStore = try await store.orderReader(client: clientOptions)
        let versions = try await orderStore.history(order.identifier)
        let decoded = try await orderStore.decodedOrder(order.identifier)
        guard let current = versions.last else {
            Output.error("\(order.identifier.clippedDescription) is not in the store")
            throw ExitCode(ExitStatus.invalid)
        }
        if json {
            Output.json(WireOrderDetail(current: current, versions: versions, order: decoded))
            return
        }
        let strings = locale.table(for: try await orderStore.archive(order.identifier))
        var lines = ["\(current.identifier)" + (decoded?.orderNumber.map { "  (order \($0))" } ?? "")]
        func row(_ label: String, _ value: String) {
            lines.append("  " + label.padding(toLength: 13, withPad: " ", startingAt: 0) + value)
        }
        row("merchant", "\(strings.text(for: current.merchantDisplayName)) (\(current.merchantIdentifier))")
        row("status", current.status + (decoded?.statusDescription.map { " — \(strings.text(for: $0))" } ?? ""))
        if let localization = strings.localization { row("localization", localization) }
        row("updatedAt", current.updatedAt.text)
        row("createdAt", current.createdAt.text)
        row("team", current.teamIdentifier)
        if let payment = decoded?.payment {
            row("payment", AmountFormatter.format(payment.total) + (payment.status.map { " (\($0.rawValue))" } ?? ""))
        }
        for (index, fulfillment) in (decoded?.fulfillments ?? []).enumerated() {
            let text: String
            switch fulfillment {
            case .shipping(let shipping):
                let tracking = [shipping.carrier, shipping.trackingNumber].compactMap { $0 }.joined(separator: " ")
                text =
                    "shipping \(shipping.fulfillmentIdentifier) \(shipping.status.rawValue)"
                    + (tracking.isEmpty ? "" : " (\(tracking))")
            case .pickup(let pickup):
                text =
                    "pickup \(pickup.fulfillmentIdentifier) \(pickup.status.rawValue) at \(strings.text(for: pickup.displayName))"
            }
            row(index == 0 ? "fulfillments" : "", text)
        }
        row("versions", "\(versions.count) (first added \(RFC3339Timestamp(versions[0].addedAt).text))")
        row("archive", "\(current.archiveSize) bytes, SHA-256 \(current.archiveSHA256)")
        Output.line(lines.joined(separator: "\n"))
    }
}
