import ArgumentParser
import Foundation
import OrderPackage
import OrderStorage

/// `--store PATH`: where the orders live. Falls back to `ORDERS_STORE`, then
/// `$XDG_DATA_HOME/orders/orders.sqlite`, then `~/.local/share/orders/orders.sqlite`.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The order store (SQLite). Default: ORDERS_STORE, else the XDG data folder.", valueName: "path"))
    var store: String?

    var path: String {
        get throws {
            let environment = ProcessInfo.processInfo.environment
            if let store { return store }
            if let store = environment["ORDERS_STORE"], !store.isEmpty { return store }
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/orders/orders.sqlite" }
            guard let home = environment["HOME"], !home.isEmpty else {
                throw CommandFailure("cannot place the order store: set --store, ORDERS_STORE or HOME")
            }
            return home + "/.local/share/orders/orders.sqlite"
        }
    }

    func repository() throws -> SQLiteOrderRepository {
        let path = try path
        do {
            return try SQLiteOrderRepository(path: path)
        } catch {
            throw CommandFailure(error.description)
        }
    }

    func orderStore(trust: TrustOptions, consent: any OrderConsentPrompt = AddWithoutAsking()) throws -> OrderStore {
        OrderStore(repository: try repository(), verifier: OrderVerifier(trustStore: try trust.trustStore()), consent: consent)
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

    /// A JSON line naming this order, then `extra`.
    func jsonLine(_ extra: JSONObject.Member...) -> String {
        let identity: [JSONObject.Member] = [
            .init(key: "orderTypeIdentifier", value: .string(orderTypeIdentifier)),
            .init(key: "orderIdentifier", value: .string(orderIdentifier)),
        ]
        return JSONValue.object(JSONObject(identity + extra)).serialized
    }
}

extension OrderStoreError {
    /// A store failure as the one-line error every command prints.
    var commandFailure: CommandFailure {
        CommandFailure(description)
    }
}
