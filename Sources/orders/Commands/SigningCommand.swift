import ArgumentParser
import Foundation
import OrderPackage
import WalletOrders
import WalletPrimitives
import WalletWire

/// `orders signing add|list|remove`: the identities `orders serve` and `orders author` sign
/// authored orders with.
struct SigningCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signing",
        abstract: "Add, stage and activate, list and remove the signing identities authored orders are signed with.",
        subcommands: [Add.self, List.self, Status.self, Activate.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Check an order type's certificate and key and store them (the key's location, never the key).",
            discussion: CommandGuide.discussion(
                "signing add",
                """
                The key is a PEM or PKCS#12 file (--key) or a key in a PKCS#11 token (--pkcs11-uri, RFC 7512, \
                through OpenSSL's pkcs11 engine). Its passphrase, or the token's PIN, is read from a file or an \
                environment variable each time the key is loaded — never from the command line, never stored. \
                Paths are stored absolute. An identity for a type that has one is staged beside it: the \
                active one keeps signing while each `orders serve` instance checks that it can load the new \
                one (orders signing status), until `orders signing activate`; --activate replaces it at \
                once instead.
                """))

        @Option(name: .customLong("order-type"), help: ArgumentHelp("The order type identifier.", valueName: "type"))
        var orderType: String

        @Option(
            help: ArgumentHelp(
                "The Order Type ID certificate (PEM or DER); optional when --key is a PKCS#12 file that holds it.",
                valueName: "file"))
        var certificate: String?

        @Option(help: ArgumentHelp("The private key: a PEM or PKCS#12 file.", valueName: "file"))
        var key: String?

        @Option(
            name: .customLong("pkcs11-uri"),
            help: ArgumentHelp("The private key in a PKCS#11 token (pkcs11:token=…;object=…).", valueName: "uri"))
        var pkcs11URI: String?

        @Option(
            name: .customLong("pkcs11-module"),
            help: ArgumentHelp("The PKCS#11 module to load (default: p11-kit's proxy).", valueName: "file"))
        var pkcs11Module: String?

        @Option(
            name: .customLong("intermediate"),
            help: ArgumentHelp(
                "A certificate to embed in every signature (Apple's WWDR G4); repeatable. Default: the trusted WWDR that issued the certificate.",
                valueName: "file"))
        var intermediates: [String] = []

        @Option(
            name: .customLong("passphrase-file"),
            help: ArgumentHelp("A file whose first line is the key's passphrase or the token's PIN.", valueName: "file"))
        var passphraseFile: String?

        @Option(
            name: .customLong("passphrase-env"),
            help: ArgumentHelp("An environment variable holding the passphrase or PIN.", valueName: "name"))
        var passphraseEnvironment: String?

        @Flag(help: "Replace the type's active identity at once instead of staging the new one.")
        var activate = false

        @Flag(help: "Print JSON.")
        var json = false

        @OptionGroup var store: StoreOptions
        @OptionGroup var trust: TrustOptions

        func validate() throws {
            guard (key == nil) != (pkcs11URI == nil) else {
                throw ValidationError("give exactly one of --key and --pkcs11-uri")
            }
            guard pkcs11Module == nil || pkcs11URI != nil else {
                throw ValidationError("--pkcs11-module goes with --pkcs11-uri")
            }
            guard passphraseFile == nil || passphraseEnvironment == nil else {
                throw ValidationError("give at most one of --passphrase-file and --passphrase-env")
            }
            guard certificate != nil || key != nil else {
                throw ValidationError("a key in a token needs --certificate")
            }
        }

        func run() async throws {
            let secret: SecretSource? =
                if let passphraseFile { .file(path: Self.absolute(passphraseFile)) } else {
                    passphraseEnvironment.map { .environment(name: $0) }
                }
            let location: SigningKeyLocation =
                if let key { .file(path: Self.absolute(key), passphrase: secret) } else {
                    .pkcs11(uri: pkcs11URI ?? "", module: pkcs11Module.map(Self.absolute), pin: secret)
                }
            let certificateBytes = try certificate.map { path in try FileInput.contents(of: path, what: "certificate") }
            let intermediateBytes = try intermediates.map { path in try FileInput.contents(of: path, what: "intermediate") }
            let wallet = try await store.wallet(create: true, trust: trust)
            let added = try await wallet.addSigningIdentity(
                orderTypeIdentifier: orderType, certificate: certificateBytes, key: location, intermediates: intermediateBytes,
                activation: activate ? .immediately : .staged)
            // Added: the process that signs reads these files each time it loads the key.
            if let key { SecretFileMode.warn(Self.absolute(key), what: "the key file") }
            if let passphraseFile {
                SecretFileMode.warn(Self.absolute(passphraseFile), what: key == nil ? "the PIN file" : "the passphrase file")
            }
            if json {
                Output.json(
                    WireSigningIdentity(added.identity, replacedAnother: added.replacedAnother, staged: added.isStaged))
            } else {
                let identity = added.identity
                let verb = added.isStaged ? "staged" : added.replacedAnother ? "replaced" : "added"
                Output.line(
                    "\(verb) \(identity.orderTypeIdentifier) "
                        + "(team \(identity.teamIdentifier), valid until \(RFC3339Timestamp(identity.notAfter).text))")
                if added.isStaged {
                    Output.note(
                        "the active identity keeps signing; once every instance can load this one (orders signing status), "
                            + "orders signing activate --order-type \(identity.orderTypeIdentifier)", toStandardError: true)
                }
            }
        }

        static func absolute(_ path: String) -> String {
            path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List signing identities: certificates and where their keys are (never a secret).",
            discussion: CommandGuide.discussion("signing list"))

        @Flag(help: "Print JSON Lines.")
        var json = false

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let identities = try await store.wallet().signingIdentities()
            if json {
                identities.forEach { Output.json(WireSigningIdentity($0)) }
                return
            }
            var table = TextTable("ORDER TYPE", "TEAM", "VALID UNTIL", "CERTIFICATE SHA-256", "KEY")
            for identity in identities {
                table.append([
                    identity.orderTypeIdentifier, identity.teamIdentifier, RFC3339Timestamp(identity.notAfter).text,
                    String(identity.certificateSHA256.prefix(16)), identity.key.summary,
                ])
            }
            table.print()
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Each order type's active and staged identity, and whether each service instance can sign with it.",
            discussion: CommandGuide.discussion(
                "signing status",
                """
                Every `orders serve` instance checks at start and every 30 s (--signing-check-interval) that it \
                can load each active and staged identity, and records it; an instance that stops forgets its \
                records. LIVE is yes for an instance heard from within 90 s.
                """))

        @Flag(help: "Print JSON Lines: one object per order type.")
        var json = false

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let statuses = try await store.wallet().signingIdentityStatus()
            let now = Date()
            if json {
                for status in statuses {
                    Output.json(
                        WireSigningStatus(
                            orderTypeIdentifier: status.orderTypeIdentifier, active: status.active, staged: status.staged,
                            reports: status.reports, now: now, liveWithin: WalletStore.liveReportWindow))
                }
                return
            }
            var table = TextTable("ORDER TYPE", "STATE", "CERTIFICATE SHA-256", "VALID UNTIL", "INSTANCE", "LIVE", "SIGNS")
            for status in statuses {
                for (state, identity) in [("active", status.active), ("staged", status.staged)] {
                    guard let identity else { continue }
                    let revision = identity.revision
                    let rows = status.reports.filter { $0.revision == revision }
                    let facts = [
                        status.orderTypeIdentifier, state, String(identity.certificateSHA256.prefix(16)),
                        RFC3339Timestamp(identity.notAfter).text,
                    ]
                    if rows.isEmpty { table.append(facts + ["-", "-", "-"]) }
                    for report in rows {
                        let live = now.timeIntervalSince(report.reportedAt) <= WalletStore.liveReportWindow
                        table.append(
                            facts + [report.instance, live ? "yes" : "no", report.loaded ? "yes" : "no: \(report.reason ?? "")"])
                    }
                }
            }
            table.print()
        }
    }

    struct Activate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "activate",
            abstract: "Make an order type's staged identity the one that signs.",
            discussion: CommandGuide.discussion(
                "signing activate",
                """
                Refused while a live instance reports that it cannot load the staged identity, or has not \
                checked it yet: activating would stop that instance signing. --force activates anyway.
                """))

        @Option(name: .customLong("order-type"), help: ArgumentHelp("The order type identifier.", valueName: "type"))
        var orderType: String

        @Flag(help: "Activate even if a live instance cannot load it (it answers 503 until it can).")
        var force = false

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let activated = try await store.wallet(writes: true).activateSigningIdentity(
                orderTypeIdentifier: orderType, force: force)
            Output.line(
                "activated \(activated.orderTypeIdentifier) (certificate \(activated.certificateSHA256.prefix(16)), "
                    + "valid until \(RFC3339Timestamp(activated.notAfter).text))")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove an order type's signing identity.", discussion: CommandGuide.discussion("signing remove"))

        @Option(name: .customLong("order-type"), help: ArgumentHelp("The order type identifier.", valueName: "type"))
        var orderType: String

        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.wallet(writes: true).removeSigningIdentity(orderTypeIdentifier: orderType)
            Output.line("removed the signing identity of \(orderType)")
        }
    }
}
