import ArgumentParser
import Foundation
import Logging
import OrderPackage
import OrdersService
import WalletPrimitives

/// `orders`: verify, build and (later) store Apple Wallet order packages.
@main
struct Orders: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orders",
        abstract: "Verify, build and store Apple Wallet order packages (.order).",
        discussion: """
            Exit codes: 0 success, 1 invalid or rejected (or not found), 2 usage or I/O error, \
            5 not authorized, 6 data restricted, 7 data type unavailable; orders add also uses \
            3 (a newer version was stored) and 4 (declined).
            Error codes in reports are stable; docs/error-codes.md lists them all.
            """,
        version: WalletOrdersVersion.current,
        subcommands: [
            VerifyCommand.self, AddCommand.self, CheckCommand.self, ListCommand.self, ShowCommand.self,
            HistoryCommand.self, ExportCommand.self, RemoveCommand.self, PackCommand.self, FinanceCommand.self,
            AccessCommand.self, RestrictCommand.self, DoctorCommand.self, ServeCommand.self, KeysCommand.self,
            SigningCommand.self, AuthorCommand.self, MigrateCommand.self, OwnerCommand.self, PreviewCommand.self,
            LinkCommand.self, TrackingCommand.self,
        ]
    )

    /// Runs the command, mapping every failure to the documented exit codes: usage and I/O
    /// errors print one line (plus usage, for usage errors) on stderr and exit 2.
    static func main() async {
        TimeZoneEnvironment.pinLocalZone()  // before any thread starts
        let level = logLevel(default: .warning)
        // Every log line of every library, escaped and bounded by one handler (`orders serve`
        // switches its sink to a background writer).
        LoggingSystem.bootstrap { label in LogLineHandler(label: label, sink: .standardError, logLevel: level) }
        var running: (any ParsableCommand.Type)?
        do {
            // verify and add take their file operands past the parser (FileOperands says why).
            let arguments = Array(CommandLine.arguments.dropFirst())
            var command: any ParsableCommand
            if let (parserArguments, files) = FileOperands.split(arguments) {
                command = FileOperands.inject(files, into: try parseAsRoot(parserArguments))
            } else {
                command = try parseAsRoot(arguments)
            }
            running = type(of: command)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch let error as CommandFailure {
            Output.error(error.message)
            Foundation.exit(ExitStatus.usageOrIO)
        } catch {
            if let (message, status) = Failure.report(error) {
                Output.error(message)
                Foundation.exit(status)
            }
            if exitCode(for: error) == .success {
                self.exit(withError: error)  // --help, --version
            }
            if let validation = error as? ValidationError, let running {
                // A check the command makes when it runs (FileOperands: no file): the command's
                // own usage, as the parser gives for its own checks, not the tool's.
                let usage = usageString(for: running)
                let name = usage.split(separator: " ").prefix { !"[<-".contains($0.first ?? "-") }.joined(separator: " ")
                Output.error(
                    Self.clippingQuotedValues(
                        "Error: \(validation.message)\nUsage: \(usage)\n  See '\(name) --help' for more information."))
                Foundation.exit(ExitStatus.usageOrIO)
            }
            Output.error(Self.clippingQuotedValues(fullMessage(for: error)))
            Foundation.exit(ExitStatus.usageOrIO)
        }
    }
}

extension Orders {
    /// `ORDERS_LOG_LEVEL` (trace, debug, info, notice, warning, error, critical), else `level`.
    static func logLevel(default level: Logger.Level) -> Logger.Level {
        ProcessInfo.processInfo.environment["ORDERS_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? level
    }

    /// swift-argument-parser quotes a rejected value whole (`The value '…' is invalid`); a message
    /// never repeats a huge input, so quoted values are cut as ``MessageText`` cuts them. (Values
    /// our own messages quoted are already short: at most twice the limit is left alone.)
    static func clippingQuotedValues(_ message: String) -> String {
        let parts = message.split(separator: "'", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return message }
        return parts.enumerated().map { index, part in
            index % 2 == 1 && index < parts.count - 1 && part.count > 2 * MessageText.maximumLength
                ? MessageText.visible(part) : String(part)
        }.joined(separator: "'")
    }
}

/// The exit statuses documented in docs/cli.md.
enum ExitStatus {
    static let success: Int32 = 0
    /// An archive is invalid or was rejected (verify, add); the order is not stored (check, show…).
    static let invalid: Int32 = 1
    static let usageOrIO: Int32 = 2
    /// `orders add`: nothing failed, but a newer version was already stored.
    static let newerExisting: Int32 = 3
    /// `orders add`: nothing failed or was older, but an order was declined.
    static let cancelled: Int32 = 4
    /// The client is not authorized (or not entitled to the order type).
    static let notAuthorized: Int32 = 5
    /// The data type is restricted for now.
    static let restricted: Int32 = 6
    /// This deployment does not provide the data type.
    static let unavailable: Int32 = 7
}

/// A failure the user can fix (a missing file, a bad option value): one line on stderr, exit 2.
struct CommandFailure: Error {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
