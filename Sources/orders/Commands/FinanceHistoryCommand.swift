import ArgumentParser
import Foundation
import WalletOrders
import WalletWire

/// `orders finance history`: a history stream, one batch of changes at a time.
struct FinanceHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print a history stream, one batch of changes at a time.",
        discussion: CommandGuide.discussion(
            "finance history",
            """
            STREAM is accounts, balances or transactions (the last two need --account). Each batch is a \
            line `STREAM: N inserted, N updated, N deleted` and one line per record; with --json, one \
            JSON object per batch: {"stream", "inserted", "updated", "deleted", "newToken"} with the \
            records in full. With --token-file, the stream \
            resumes from the token in the file (if any) and the file is rewritten after each batch. \
            --follow keeps the stream open and prints changes as they are imported, until interrupted. \
            An invalid or compacted token exits 1: remove the token file to start over.
            """))

    enum Stream: String, ExpressibleByArgument, CaseIterable {
        case accounts, balances, transactions
    }

    @Argument(help: ArgumentHelp("accounts, balances or transactions.", valueName: "stream"))
    var stream: Stream

    @Option(help: ArgumentHelp("The account (for balances and transactions).", valueName: "id"))
    var account: String?

    @Option(help: ArgumentHelp("Read the token from this file and write each new token to it.", valueName: "file"))
    var tokenFile: String?

    @Flag(help: "Keep the stream open and print changes as they arrive.")
    var follow = false

    @Flag(help: "Print each batch as a line of JSON, records in full.")
    var json = false

    @OptionGroup var clientOptions: ClientOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        if stream != .accounts && account == nil { throw ValidationError("The \(stream.rawValue) stream needs --account.") }
        if stream == .accounts && account != nil { throw ValidationError("The accounts stream takes no --account.") }
    }

    func run() async throws {
        let finance = try await store.wallet().financeStore(for: try clientOptions.identifier)
        let token = try readToken()
        let id = try account.map(FinanceOutput.parseAccount)
        // The stream's name as the library spells it (`transactions/<UUID>`), whatever case was typed.
        let name = stream.rawValue + (id.map { "/\($0.uuidString)" } ?? "")
        switch (stream, id) {
        case (.accounts, _):
            try await print(finance.accountHistory(since: token, isMonitoring: follow), as: name)
        case (.balances, let id?):
            try await print(finance.accountBalanceHistory(forAccountID: id, since: token, isMonitoring: follow), as: name)
        case (.transactions, let id?):
            try await print(finance.transactionHistory(forAccountID: id, since: token, isMonitoring: follow), as: name)
        case (.balances, nil), (.transactions, nil):
            throw ValidationError("The \(stream.rawValue) stream needs --account.")  // validate() already refused this
        }
    }

    private func print<Model: Codable & Sendable & Identifiable>(
        _ history: FinanceStore.History<Model>, as name: String
    ) async throws where Model.ID == UUID {
        for try await changes in history {
            if json {
                Output.json(
                    WireHistoryChanges(
                        stream: name, inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted,
                        newToken: changes.newToken))
            } else {
                Output.line(
                    "\(name): \(changes.inserted.count) inserted, \(changes.updated.count) updated, "
                        + "\(changes.deleted.count) deleted")
                for model in changes.inserted { Output.line("  inserted \(model.id.uuidString)") }
                for model in changes.updated { Output.line("  updated  \(model.id.uuidString)") }
                for id in changes.deleted { Output.line("  deleted  \(id.uuidString)") }
            }
            try writeToken(changes.newToken)
        }
    }

    private func readToken() throws -> HistoryToken? {
        guard let tokenFile, FileManager.default.fileExists(atPath: tokenFile) else { return nil }
        let data = try FileInput.contents(of: tokenFile)
        guard !data.isEmpty else { return nil }
        do {
            return try JSONDecoder().decode(HistoryToken.self, from: data)
        } catch {
            // Whatever the bytes are, an unusable token is the documented exit 1, like a stale one.
            Output.error("\(MessageText.quote(tokenFile)) does not hold a history token")
            throw FinanceError.historyTokenInvalid
        }
    }

    private func writeToken(_ token: HistoryToken) throws {
        guard let tokenFile else { return }
        let data: Data
        do {
            data = try JSONEncoder().encode(token)
        } catch {
            throw CommandFailure("cannot encode the history token: \(error)")
        }
        try FileOutput.write(data, to: tokenFile)
    }
}
