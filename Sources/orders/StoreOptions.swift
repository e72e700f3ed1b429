import ArgumentParser
import Foundation
import Logging
import WalletOrders
import WalletPrimitives

/// `--store PATH`: where the orders and financial data live. Falls back to `ORDERS_STORE`, then
/// `$XDG_DATA_HOME/orders/orders.sqlite`, then `~/.local/share/orders/orders.sqlite`.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The store (SQLite). Default: ORDERS_STORE, else the XDG data folder.", valueName: "path"))
    var store: String?

    var path: String {
        get throws {
            let environment = ProcessInfo.processInfo.environment
            if let store { return store }
            if let store = environment["ORDERS_STORE"], !store.isEmpty { return store }
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/orders/orders.sqlite" }
            guard let home = environment["HOME"], !home.isEmpty else {
                throw CommandFailure("cannot place the store: set --store, ORDERS_STORE or HOME")
            }
            return home + "/.local/share/orders/orders.sqlite"
        }
    }

    /// Opens the store with this deployment's configuration: data types from `ORDERS_DATA_TYPES`,
    /// the trust roots (commands that verify no archive take none), and the prompts the command
    /// uses. Only commands that write pass `create`: a reading command never creates a store (a
    /// missing one is "there is no store at …", exit 2).
    func wallet(
        create: Bool = false, trust: TrustOptions? = nil, consent: any OrderConsentPrompt = AddWithoutAsking(),
        authorizationPrompt: any AuthorizationPrompt = DenyingAuthorizationPrompt()
    ) throws -> WalletStore {
        let verifier = try trust.map { OrderVerifier(trustStore: try $0.trustStore()) } ?? OrderVerifier()
        let configuration = WalletConfiguration(
            availability: try .fromEnvironment(), verifier: verifier, orderConsent: consent,
            authorizationPrompt: authorizationPrompt, logger: Logger(label: "orders"))
        return try WalletStore(path: try path, configuration: configuration, createIfMissing: create)
    }
}

/// `--client ID`: who the call is made for (default `ORDERS_CLIENT`).
struct ClientOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The client the call is made for (default: ORDERS_CLIENT).", valueName: "id"))
    var client: String?

    /// The client, if one was given.
    var optionalIdentifier: ClientIdentifier? {
        get throws {
            guard let raw = client ?? ProcessInfo.processInfo.environment["ORDERS_CLIENT"], !raw.isEmpty else { return nil }
            return try Self.parse(raw)
        }
    }

    static func parse(_ raw: String) throws -> ClientIdentifier {
        guard let identifier = ClientIdentifier(rawValue: raw) else {
            throw CommandFailure("\(MessageText.quote(raw)) is not a client identifier (letters, digits, '.', '-', '_')")
        }
        return identifier
    }

    /// The client, which must be given.
    var identifier: ClientIdentifier {
        get throws {
            guard let identifier = try optionalIdentifier else { throw CommandFailure("give --client or set ORDERS_CLIENT") }
            return identifier
        }
    }
}

/// `--type T --id I`: one order's fully qualified identifier.
struct OrderIdentifierOptions: ParsableArguments {
    @Option(name: .customLong("type"), help: ArgumentHelp("The order type identifier.", valueName: "orderTypeIdentifier"))
    var orderTypeIdentifier: String

    @Option(name: .customLong("id"), help: ArgumentHelp("The order identifier.", valueName: "orderIdentifier"))
    var orderIdentifier: String

    var identifier: FullyQualifiedOrderIdentifier {
        FullyQualifiedOrderIdentifier(orderTypeIdentifier: orderTypeIdentifier, orderIdentifier: orderIdentifier)
    }
}
