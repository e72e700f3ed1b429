import ArgumentParser
import Foundation
import WalletOrders
import WalletPrimitives
import WalletWire

/// `orders restrict`: put data types into (or out of) a restricted state.
struct RestrictCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restrict",
        abstract: "Restrict a data type for every process using the store, or lift it (no restart needed).",
        discussion: CommandGuide.discussion(
            "restrict",
            """
            ACTION is on, off or status. While a type is restricted every call for it fails with exit \
            status 6 and changes nothing. Without --type, both types.
            """))

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case on, off, status
    }

    @Argument(help: ArgumentHelp("on, off or status.", valueName: "action"))
    var action: Action

    @Option(name: .customLong("type"), help: ArgumentHelp("financialData or orders.", valueName: "type"))
    var type: DataType?

    @Flag(help: "Print JSON (status).")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let wallet = try await store.wallet(create: action != .status)
        let types = type.map { [$0] } ?? DataType.allCases.filter { wallet.configuration.availability.isDataAvailable($0) }
        for type in types {
            switch action {
            case .on: try await wallet.setRestricted(type, true)
            case .off: try await wallet.setRestricted(type, false)
            case .status: break
            }
            let since = try await wallet.restriction(of: type)
            if json {
                Output.json(WireRestriction(type, since: since))
            } else {
                Output.line(
                    "\(type.rawValue): " + (since.map { "restricted since \(RFC3339Timestamp($0).text)" } ?? "not restricted"))
            }
        }
    }
}

extension DataType: ExpressibleByArgument {}
