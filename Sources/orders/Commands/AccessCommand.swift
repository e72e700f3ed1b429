import ArgumentParser
import Foundation
import WalletOrders
import WalletPrimitives
import WalletWire

/// `orders access`: clients' authorizations and entitlements.
struct AccessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "access",
        abstract: "Show and change what a client may see: accounts (with earliest dates) and order types.",
        subcommands: [
            AccessStatusCommand.self, AccessRequestCommand.self, AccessGrantCommand.self, AccessDenyCommand.self,
            AccessRevokeCommand.self,
        ])
}

/// `--account ID[:EARLIEST]` values.
struct AccountGrantOption: ExpressibleByArgument {
    let grant: AccountGrant

    init?(argument: String) {
        let parts = argument.split(separator: ":", maxSplits: 1).map(String.init)
        guard let id = UUID(uuidString: parts[0]) else { return nil }
        if parts.count == 2 {
            guard let earliest = DateArgument.timestamp(parts[1]) else { return nil }
            grant = AccountGrant(accountID: id, earliestDate: earliest.date)
        } else {
            grant = AccountGrant(accountID: id)
        }
    }
}

enum AccessOutput {
    /// Prints `access` as a line of JSON, or as text.
    static func print(_ access: ClientAccess, json: Bool) {
        if json { Output.json(WireClientAccess(access)) } else { Output.line(describe(access)) }
    }

    static func describe(_ access: ClientAccess) -> String {
        let accounts = access.accounts.values.sorted { $0.accountID.uuidString < $1.accountID.uuidString }
        var lines = ["\(access.client): \(access.status.rawValue)"]
        for account in accounts {
            lines.append(
                "  account \(account.accountID.uuidString)"
                    + (account.earliestDate.map { " from \(RFC3339Timestamp($0).text)" } ?? ""))
        }
        for type in access.orderTypeIdentifiers.sorted() { lines.append("  orders of type \(type)") }
        return lines.joined(separator: "\n")
    }
}

struct AccessStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show a client's authorization, shared accounts and order types (all clients without --client).",
        discussion: CommandGuide.discussion("access status"))

    @Option(help: ArgumentHelp("The client.", valueName: "id"))
    var client: String?

    @Flag(help: "Print JSON.")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let wallet = try await store.wallet()
        if let client {
            AccessOutput.print(try await wallet.access(for: try ClientOptions.parse(client)), json: json)
        } else {
            for access in try await wallet.clients() { AccessOutput.print(access, json: json) }
        }
    }
}

struct AccessRequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Ask for authorization as the client would (requestAuthorization): prompts only while not determined.",
        discussion: CommandGuide.discussion(
            "access request",
            """
            Lists the accounts and reads the answer from stdin: account numbers separated by commas, \
            'all', nothing for none (authorized with no accounts), or 'deny'. An answer it cannot read \
            is asked again. Prints the status; when input ends without an answer, nothing is decided: \
            the client stays notDetermined (exit 5) and the message says how to grant or deny.
            """))

    @OptionGroup var clientOptions: ClientOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let wallet = try await store.wallet(create: true, authorizationPrompt: TerminalAuthorizationPrompt())
        let client = try clientOptions.identifier
        let status = try await wallet.financeStore(for: client).requestAuthorization()
        Output.line(status.rawValue)
        if status == .notDetermined {
            Output.error(
                "no answer was given, so \(client) stays notDetermined; answer with `orders access request --client \(client)`, "
                    + "or decide with `orders access grant --client \(client) --account ID` or `orders access deny --client \(client)`"
            )
            throw ExitCode(ExitStatus.notAuthorized)
        }
    }
}

/// Lists the accounts on stderr and reads which to share from stdin. An answer it cannot read is
/// asked again (the decision is cached for good, so a typo must not become one); end of input
/// decides nothing (``AuthorizationDecision/dismissed``).
struct TerminalAuthorizationPrompt: AuthorizationPrompt {
    func requestAuthorization(for client: ClientIdentifier, accounts: [AccountChoice]) async -> AuthorizationDecision {
        var lines = ["\(client) asks to see your financial data."]
        for (index, account) in accounts.enumerated() {
            lines.append("  \(index + 1). \(account.displayName) (\(account.institutionName))")
        }
        lines.append("Share which accounts? [numbers, 'all', Enter for none, 'deny'] ")
        Output.prompt(lines.joined(separator: "\n"))
        while let line = readLine() {
            if isatty(STDIN_FILENO) != 1 { Output.prompt("\n") }
            if let decision = Self.decision(line, accounts: accounts) { return decision }
            Output.prompt(
                "Answer with account numbers 1–\(accounts.count) separated by commas, 'all', Enter for none, or 'deny': ")
        }
        Output.prompt("\n")
        return .dismissed
    }

    /// The decision an answer gives; nil when it is not one of the accepted forms.
    static func decision(_ answer: String, accounts: [AccountChoice]) -> AuthorizationDecision? {
        let answer = answer.trimmingCharacters(in: .whitespaces).lowercased()
        switch answer {
        case "deny": return .denied
        case "all": return .authorized(accounts.map { AccountGrant(accountID: $0.id) })
        case "": return .authorized([])
        default:
            var chosen: [UUID] = []
            for part in answer.split(separator: ",") {
                guard let number = Int(part.trimmingCharacters(in: .whitespaces)), accounts.indices.contains(number - 1) else {
                    return nil
                }
                chosen.append(accounts[number - 1].id)
            }
            return .authorized(chosen.map { AccountGrant(accountID: $0) })
        }
    }
}

struct AccessGrantCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grant",
        abstract: "Authorize the client for accounts (from an earliest date) and entitle it to order types.",
        discussion: CommandGuide.discussion("access grant"))

    @OptionGroup var clientOptions: ClientOptions

    @Option(
        help: ArgumentHelp(
            "An account to share, optionally from a date (a day or an RFC 3339 date-time); repeatable.",
            valueName: "id[:earliest]"))
    var account: [AccountGrantOption] = []

    @Option(
        name: .customLong("order-type"),
        help: ArgumentHelp("An order type the client may save and check; repeatable.", valueName: "type"))
    var orderTypes: [String] = []

    @Flag(help: "Print the client's access as JSON.")
    var json = false

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if account.isEmpty && orderTypes.isEmpty { throw ValidationError("Give --account or --order-type (or both).") }
    }

    func run() async throws {
        let wallet = try await store.wallet(create: true)
        let client = try clientOptions.identifier
        if !account.isEmpty { try await wallet.grant(account.map(\.grant), to: client) }
        if !orderTypes.isEmpty { try await wallet.entitle(client, toOrderTypes: Set(orderTypes)) }
        AccessOutput.print(try await wallet.access(for: client), json: json)
    }
}

struct AccessDenyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deny", abstract: "Deny financial data to the client.", discussion: CommandGuide.discussion("access deny"))

    @OptionGroup var clientOptions: ClientOptions
    @Flag(help: "Print the client's access as JSON.")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let wallet = try await store.wallet(create: true)
        let client = try clientOptions.identifier
        try await wallet.deny(client)
        AccessOutput.print(try await wallet.access(for: client), json: json)
    }
}

struct AccessRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Withdraw access, effective on the client's next call.",
        discussion: CommandGuide.discussion(
            "access revoke",
            """
            Without options: all financial data (the client becomes denied and its history tokens stop \
            working). With --account: only those accounts (they show as deleted in its account history). \
            With --order-type: only those order types.
            """))

    @OptionGroup var clientOptions: ClientOptions

    @Option(help: ArgumentHelp("An account to stop sharing; repeatable.", valueName: "id"))
    var account: [String] = []

    @Option(name: .customLong("order-type"), help: ArgumentHelp("An order type to withdraw; repeatable.", valueName: "type"))
    var orderTypes: [String] = []

    @Flag(help: "Print the client's access as JSON.")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let wallet = try await store.wallet(create: true)
        let client = try clientOptions.identifier
        if !orderTypes.isEmpty { try await wallet.removeEntitlements(client, toOrderTypes: Set(orderTypes)) }
        if !account.isEmpty || orderTypes.isEmpty {
            try await wallet.revoke(client, accounts: try account.map(FinanceOutput.parseAccount))
        }
        AccessOutput.print(try await wallet.access(for: client), json: json)
    }
}
