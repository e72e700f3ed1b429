import ArgumentParser
import Foundation
import OrderPackage
import OrderStorage
import WalletOrders

/// `orders export`: the stored archive, byte for byte.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a stored order's archive, byte for byte as it was added.",
        discussion: "Exit status: 0 written, 1 not stored, 2 on errors.")

    @OptionGroup var order: OrderIdentifierOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the archive.", valueName: "file"))
    var output: String

    @Flag(help: "Print a JSON object describing what was written.")
    var json = false

    @OptionGroup var store: StoreOptions
    @OptionGroup var trust: TrustOptions

    func run() async throws {
        let orderStore = try await store.operatorOrders(trust: trust, for: "export")
        let archive = try await orderStore.archive(order.identifier)
        guard let archive else {
            Output.error("\(order.identifier) is not in the store")
            throw ExitCode(ExitStatus.invalid)
        }
        do {
            try archive.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CommandFailure("cannot write \(output): \(TrustOptions.reason(error))")
        }
        if json {
            Output.line(
                JSONValue.object(
                    JSONObject([
                        .init(key: "file", value: .string(output)), .init(key: "bytes", value: .number(String(archive.count))),
                    ])
                ).serialized)
        } else {
            Output.line("exported \(order.identifier) to \(output) (\(archive.count) bytes)")
        }
    }
}
