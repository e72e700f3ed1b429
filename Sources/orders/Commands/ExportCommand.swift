import ArgumentParser
import Foundation
import OrderPackage
import OrderStorage
import WalletOrders
import WalletPrimitives
import WalletWire

/// `orders export`: the stored archive, byte for byte.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a stored order's archive, byte for byte as it was added.",
        discussion: CommandGuide.discussion("export", "Exit status: 0 written, 1 not stored, 2 on errors."))

    @OptionGroup var order: OrderIdentifierOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the archive (- for standard output).", valueName: "file"))
    var output: String

    @Flag(help: "Print a JSON object describing what was written.")
    var json = false

    @OptionGroup var clientOptions: ClientOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let orderStore = try await store.orderReader(client: clientOptions)
        let archive = try await orderStore.archive(order.identifier)
        guard let archive else {
            Output.error("\(order.identifier.clippedDescription) is not in the store")
            throw ExitCode(ExitStatus.invalid)
        }
        try FileOutput.write(archive, to: output)
        // With -o -, standard output carries the archive; the confirmation goes to stderr.
        let toStandardError = output == "-"
        if json {
            Output.json(WireFileWritten(file: output, bytes: archive.count), toStandardError: toStandardError)
        } else {
            Output.note(
                "exported \(order.identifier.clippedDescription) to \(output) (\(archive.count) bytes)",
                toStandardError: toStandardError)
        }
    }
}
