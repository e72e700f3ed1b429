import ArgumentParser
import Foundation
import WalletOrders
import WalletPrimitives
import WalletWire

/// `orders tracking add|list|secrets|remove|events|replay`: the tracking providers' webhooks
/// (docs/tracking.md).
struct TrackingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracking",
        abstract: "Configure tracking providers' webhooks; list their events; apply a saved body again.",
        subcommands: [Add.self, List.self, Secrets.self, Remove.self, Events.self, Replay.self])

    /// `--secret-file F [--secret-file OLD]`: an endpoint's secrets, each a file's first line.
    struct SecretFiles: ParsableArguments {
        @Option(
            name: .customLong("secret-file"),
            help: ArgumentHelp(
                "A file whose first line is the webhook secret; twice while rotating (the new one first).", valueName: "file"))
        var paths: [String]

        func validate() throws {
            guard (1...TrackingEndpoint.maximumSecrets).contains(paths.count) else {
                throw ValidationError("give --secret-file once, or twice while rotating (the new secret first)")
            }
        }

        /// Each file's first line; a file other users may read is warned about.
        func secrets() throws -> [String] {
            try paths.map { path in
                SecretFileMode.warn(path, what: "the secret file")
                let text = String(decoding: try FileInput.contents(of: path, what: "the secret file"), as: UTF8.self)
                let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                return String(line.hasSuffix("\r") ? line.dropLast() : line)
            }
        }
    }

    /// The path a provider posts to (and the whole URL with the service's public URL).
    static func webhookPath(_ endpoint: TrackingEndpoint, publicURL: String?) -> String {
        let path = "api/v1/tracking/\(endpoint.provider)/\(endpoint.identifier)"
        guard let publicURL else { return "/" + path }
        return (publicURL.hasSuffix("/") ? publicURL : publicURL + "/") + path
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Configure a provider's webhook for some order types; prints the URL to give the provider.",
            discussion: CommandGuide.discussion(
                "tracking add",
                """
                The provider signs each body with the secret (AfterShip: the webhook secret of its \
                Notifications settings; EasyPost: the webhook's secret). Give a second --secret-file \
                while rotating; `orders tracking secrets` changes them later.
                """))

        @Option(help: ArgumentHelp("The provider: aftership or easypost.", valueName: "provider"))
        var provider: TrackingProvider

        @Option(
            name: .customLong("order-type"),
            help: ArgumentHelp("An order type its events may change; repeatable, at least one.", valueName: "type"))
        var orderTypes: [String]

        @OptionGroup var secretFiles: SecretFiles

        @Option(
            name: .customLong("public-url"),
            help: ArgumentHelp("The service's public URL, to print the whole webhook URL.", valueName: "url"))
        var publicURL: String?

        @Flag(help: "Print JSON.")
        var json = false

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let secrets = try secretFiles.secrets()
            let wallet = try await store.wallet(create: true)
            let endpoint = try await wallet.addTrackingEndpoint(
                provider: provider, orderTypeIdentifiers: orderTypes, secrets: secrets)
            let url = TrackingCommand.webhookPath(endpoint, publicURL: publicURL)
            if json {
                Output.json(WireTrackingEndpoint(endpoint, url: url))
            } else {
                Output.line(url)
                Output.note(
                    "endpoint \(endpoint.identifier) for \(endpoint.orderTypeIdentifiers.joined(separator: ", ")); "
                        + "give the URL to \(endpoint.provider)", toStandardError: true)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the webhooks (never their secrets).", discussion: CommandGuide.discussion("tracking list"))

        @Flag(help: "Print JSON Lines.")
        var json = false

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let wallet = try await store.wallet()
            let endpoints = try await wallet.trackingEndpoints()
            if json {
                endpoints.forEach { Output.json(WireTrackingEndpoint($0, url: TrackingCommand.webhookPath($0, publicURL: nil))) }
                return
            }
            var table = TextTable("ENDPOINT", "PROVIDER", "ORDER TYPES", "SECRETS", "CREATED")
            for endpoint in endpoints {
                table.append([
                    endpoint.identifier, endpoint.provider, endpoint.orderTypeIdentifiers.joined(separator: ","),
                    String(endpoint.secrets.count), RFC3339Timestamp(endpoint.createdAt).text,
                ])
            }
            table.print()
        }
    }

    struct Secrets: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "secrets",
            abstract: "Replace a webhook's secrets: the new one and the old one while rotating, then the new one alone.",
            discussion: CommandGuide.discussion("tracking secrets"))

        @Argument(help: ArgumentHelp("The endpoint (from list).", valueName: "endpoint"))
        var endpoint: String

        @OptionGroup var secretFiles: SecretFiles

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let secrets = try secretFiles.secrets()
            let wallet = try await store.wallet(writes: true)
            guard try await wallet.setTrackingSecrets(secrets, endpoint: endpoint) else {
                Output.error("no tracking endpoint \(MessageText.quote(endpoint))")
                throw ExitCode(ExitStatus.invalid)
            }
            Output.line("\(endpoint) now takes \(secrets.count == 1 ? "one secret" : "two secrets")")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a webhook and the events it received (the versions they made stay).",
            discussion: CommandGuide.discussion("tracking remove"))

        @Argument(help: ArgumentHelp("The endpoint (from list).", valueName: "endpoint"))
        var endpoint: String

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let wallet = try await store.wallet(writes: true)
            guard try await wallet.removeTrackingEndpoint(endpoint) else {
                Output.error("no tracking endpoint \(MessageText.quote(endpoint))")
                throw ExitCode(ExitStatus.invalid)
            }
            Output.line("removed \(endpoint)")
        }
    }

    struct Events: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "events",
            abstract: "List the latest events received, newest first.", discussion: CommandGuide.discussion("tracking events"))

        @Flag(help: "Only events no order names yet.")
        var unmatched = false

        @Option(help: ArgumentHelp("How many (1…1000).", valueName: "n"))
        var limit = 50

        @Flag(help: "Print JSON Lines.")
        var json = false

        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be 1…1000") }
        }

        func run() async throws {
            let wallet = try await store.wallet()
            let events = try await wallet.trackingEvents(unmatched: unmatched, limit: limit)
            if json {
                events.forEach { Output.json(WireTrackingEvent($0)) }
                return
            }
            var table = TextTable("RECEIVED", "PROVIDER", "EVENT", "PARCEL", "OUTCOME", "VERSIONS")
            for event in events {
                table.append([
                    RFC3339Timestamp(event.receivedAt).text, event.provider, event.eventID, event.trackingKey,
                    event.outcome.rawValue, String(event.versions),
                ])
            }
            table.print()
        }
    }

    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "replay",
            abstract: "Apply a saved webhook body again, as the endpoint would (signature and age not checked).",
            discussion: CommandGuide.discussion(
                "tracking replay",
                """
                For support and tests: the body is read as the provider's, recorded under the \
                endpoint and applied; an event id already recorded changes nothing.
                """))

        @Argument(help: ArgumentHelp("The body, as the provider sent it.", valueName: "file"))
        var file: String

        @Option(help: ArgumentHelp("The provider: aftership or easypost.", valueName: "provider"))
        var provider: TrackingProvider

        @Option(
            help: ArgumentHelp("The endpoint (from list); needed when the provider has several.", valueName: "endpoint"))
        var endpoint: String?

        @Option(
            name: .customLong("public-url"),
            help: ArgumentHelp(
                "The service's public URL with its base path: the webServiceURL of the versions made.", valueName: "url"))
        var publicURL: String?

        @OptionGroup var webServiceURLs: WebServiceURLOptions

        @Flag(help: "Print JSON.")
        var json = false

        @OptionGroup var store: StoreOptions
        @OptionGroup var trust: TrustOptions

        func validate() throws {
            guard provider.signsBodies else {
                throw ValidationError("replay takes a provider's body (aftership or easypost); post a generic event instead")
            }
        }

        func run() async throws {
            let body = try FileInput.contents(of: file, what: "the body")
            let wallet = try await store.wallet(writes: true, trust: trust)
            let chosen: String
            if let endpoint {
                chosen = endpoint
            } else {
                let candidates = try await wallet.trackingEndpoints().filter { $0.provider == provider.rawValue }
                guard candidates.count == 1 else {
                    throw ValidationError(
                        candidates.isEmpty
                            ? "no \(provider.rawValue) endpoint is configured (orders tracking add)"
                            : "\(provider.rawValue) has \(candidates.count) endpoints: name one with --endpoint")
                }
                chosen = candidates[0].identifier
            }
            let result: TrackingResult
            do {
                result = try await wallet.receiveTrackingWebhook(
                    body, provider: provider, endpoint: chosen, signature: nil,
                    webService: try webServiceURLs.policy(serviceURL: publicURL),
                    checkingSignature: false)
            } catch let error as any WalletError {
                if json { Output.json(WireError(error)) } else { Output.error(Failure.line(error)) }
                throw ExitCode(Failure.status(of: error))
            }
            if json {
                Output.json(WireTrackingResult(result))
            } else {
                let versions = result.versions.map {
                    "\($0.identifier.orderTypeIdentifier) \($0.identifier.orderIdentifier) updatedAt \($0.updatedAt.text)"
                }
                Output.line(([result.outcome.rawValue] + versions).joined(separator: "\n"))
            }
        }
    }
}

extension TrackingProvider: ExpressibleByArgument {}
