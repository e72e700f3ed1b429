import ArgumentParser
import Foundation
import WalletOrders
import WalletPrimitives
import WalletWire

/// `orders finance clients create|list|revoke`: the third-party clients that may ask the owner
/// for financial data through `orders serve` (docs/finance-web.md).
struct FinanceClientsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clients",
        abstract: "Register, list and revoke the clients that may ask for financial data.",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Register a client; prints its client_id and, unless --public, its secret (once).",
            discussion: CommandGuide.discussion(
                "finance clients create",
                """
                Redirect URIs are matched exactly: https, http only to 127.0.0.1, [::1] or localhost, \
                or an app scheme named after a domain (com.example.budget:/callback).
                """))

        @Option(help: ArgumentHelp("The name the owner sees on the consent sheet.", valueName: "name"))
        var name: String

        @Option(
            name: .customLong("redirect-uri"),
            help: ArgumentHelp("Where codes may be sent; repeatable, at least one.", valueName: "uri"))
        var redirectURIs: [String]

        @Flag(help: "An app on a device that cannot keep a secret: no secret, PKCE alone.")
        var `public` = false

        @Option(help: ArgumentHelp("The client_id to use (default: a new client.<hex>).", valueName: "id"))
        var id: String?

        @Flag(help: "Print JSON.")
        var json = false

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let wallet = try await store.wallet(create: true)
            let created = try await wallet.consent.registerClient(
                id: id, name: name, redirectURIs: redirectURIs, isPublic: `public`)
            if json {
                Output.json(WireRegisteredClient(created.client, secret: created.secret))
                return
            }
            Output.line("client_id: \(created.client.id.rawValue)")
            if let secret = created.secret {
                Output.line("client_secret: \(secret)")
                Output.note("store the secret now: it is not shown again", toStandardError: true)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List clients with their authorization (never secrets).",
            discussion: CommandGuide.discussion("finance clients list"))

        @Flag(help: "Print JSON Lines.")
        var json = false

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let wallet = try await store.wallet()
            var table = TextTable("CLIENT", "NAME", "KIND", "STATUS", "REDIRECT URIS", "CREATED", "REVOKED")
            for client in try await wallet.consent.registeredClients() {
                let status = try await wallet.access(for: client.id).status
                if json {
                    Output.json(WireRegisteredClient(client, status: status))
                    continue
                }
                table.append([
                    client.id.rawValue, client.name, client.isPublic ? "public" : "confidential", status.rawValue,
                    client.redirectURIs.joined(separator: " "), RFC3339Timestamp(client.createdAt).text,
                    client.revokedAt.map { RFC3339Timestamp($0).text } ?? "-",
                ])
            }
            if !json { table.print() }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Revoke a client for good: no new flows, its tokens end, its access is revoked.",
            discussion: CommandGuide.discussion("finance clients revoke"))

        @Argument(help: ArgumentHelp("The client_id.", valueName: "client"))
        var client: String

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let wallet = try await store.wallet(writes: true)
            guard let id = ClientIdentifier(rawValue: client), try await wallet.consent.registeredClient(id) != nil else {
                throw CommandFailure("no client \(MessageText.quote(client)) is registered (`orders finance clients list`)")
            }
            let revoked = try await wallet.consent.revokeClient(id)
            Output.line(revoked ? "revoked \(id.rawValue)" : "\(id.rawValue) was already revoked")
        }
    }
}
