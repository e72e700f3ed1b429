import ArgumentParser
import Foundation
import WalletOrders

/// `orders owner`: the owner's password, which every signed-in page of `orders serve` asks for
/// (the consent sheet, the transaction picker, Settings, the operator console).
struct OwnerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "owner",
        abstract:
            "Set the owner's password for orders serve's pages (consent sheet, transaction picker, Settings, console); lift sign-in limits.",
        subcommands: [SetPassword.self, Unlock.self])

    struct SetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-password",
            abstract:
                "Set the owner's password, read from standard input; signs out every session and forgets trusted browsers.",
            discussion: CommandGuide.discussion(
                "owner set-password",
                """
                At a terminal the password is asked for twice, without echo; otherwise the first line \
                of standard input is the password (never an argument: the shell's history and ps would \
                show it). 10–72 bytes, no control characters. Stored as a bcrypt hash.
                """))

        @Option(
            help: ArgumentHelp(
                "bcrypt's cost, log2 of its rounds: 12 by default (a quarter of a second per sign-in); 4–31, below 10 only for tests.",
                valueName: "cost"))
        var cost = OwnerPassword.defaultCost

        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard OwnerPassword.costs.contains(cost) else { throw ValidationError("--cost takes 4–31, not \(cost).") }
        }

        func run() async throws {
            guard let password = try SecretInput.read(prompt: "New owner password: ", confirm: "Repeat it: ") else {
                throw CommandFailure("no password was given on standard input; nothing was changed")
            }
            let wallet = try await store.wallet(create: true)
            try await wallet.consent.setOwnerPassword(password, cost: cost)
            Output.line("owner password set; every session is signed out and every browser must sign in again")
        }
    }

    struct Unlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlock",
            abstract: "Forget every counted sign-in attempt, so that every address may sign in again at once.",
            discussion: CommandGuide.discussion(
                "owner unlock",
                """
                orders serve counts sign-in attempts per address, network and trusted browser, and                 refuses an address or network past its limit for 15 minutes (docs/finance-web.md).                 This clears the counts on every instance sharing the store; it changes no password,                 session or trusted browser.
                """))

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let wallet = try await store.wallet(writes: true)
            let cleared = try await wallet.consent.unlockSignIn()
            Output.line("sign-in unlocked: \(cleared) counted attempt\(cleared == 1 ? "" : "s") forgotten")
        }
    }
}
