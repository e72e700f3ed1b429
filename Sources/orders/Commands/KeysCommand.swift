import ArgumentParser
import Foundation
import WalletCore
import WalletOrders
import WalletPrimitives
import WalletWire

/// `orders keys create|list|revoke`: API keys of the merchant API (`orders serve`).
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Create, list and revoke API keys of the merchant API.",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Create a key for some order types; prints the key once (only its hash is stored).",
            discussion: CommandGuide.discussion("keys create"))

        @Option(
            name: .customLong("order-type"),
            help: ArgumentHelp("An order type the key may use; repeatable, at least one.", valueName: "type"))
        var orderTypes: [String]

        @Option(help: ArgumentHelp("A name to tell keys apart.", valueName: "name"))
        var name = ""

        @Flag(help: "Print JSON.")
        var json = false

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let wallet = try await store.wallet(create: true)
            let created = try await wallet.createAPIKey(name: name, orderTypes: Set(orderTypes))
            if json {
                Output.json(WireAPIKey(created.key, token: created.token))
            } else {
                Output.line(created.token)
                Output.note(
                    "key \(created.key.identifier) for \(created.key.orderTypeIdentifiers.sorted().joined(separator: ", ")); "
                        + "store it now: it is not shown again", toStandardError: true)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List keys (never their secrets).", discussion: CommandGuide.discussion("keys list"))

        @Flag(help: "Print JSON Lines.")
        var json = false

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let wallet = try await store.wallet()
            let keys = try await wallet.apiKeys()
            if json {
                keys.forEach { Output.json(WireAPIKey($0)) }
                return
            }
            var table = TextTable("KEY", "NAME", "ORDER TYPES", "CREATED", "REVOKED")
            for key in keys {
                table.append([
                    key.identifier, key.name, key.orderTypeIdentifiers.sorted().joined(separator: ","),
                    RFC3339Timestamp(key.createdAt).text, key.revokedAt.map { RFC3339Timestamp($0).text } ?? "-",
                ])
            }
            table.print()
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Revoke a key for good.", discussion: CommandGuide.discussion("keys revoke"))

        @Argument(help: ArgumentHelp("The key's identifier (from list), or the whole key.", valueName: "key"))
        var key: String

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let wallet = try await store.wallet(writes: true)
            let revoked = try await wallet.revokeAPIKey(key)
            Output.line(
                revoked.wasAlreadyRevoked ? "\(revoked.identifier) was already revoked" : "revoked \(revoked.identifier)")
        }
    }
}
