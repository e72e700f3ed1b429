import ArgumentParser
import Foundation
import OrderPackage
import OrderStorage
import WalletOrders
import WalletPrimitives
import WalletWire

/// `orders add`: verify and store order packages.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Verify order packages and store the newest version of each order.",
        discussion: CommandGuide.discussion(
            "add",
            """
            Prints one line per file: added, newerExisting, cancelled, or the error code(s). On an \
            interactive terminal each order is shown and you are asked before it is added; --yes (or \
            stdin not being a terminal) adds without asking. One bad file never stops the others.
            With --client (or ORDERS_CLIENT), orders of types the client is not entitled to are \
            rejected (access.notEntitled).
            Exit status: 0 all added; 1 any invalid or rejected (store.conflictingVersion, \
            store.signerChanged, access.notEntitled); 3 otherwise if any newerExisting; 4 otherwise if \
            any cancelled; 2 for unreadable files or an unusable store; 6 orders restricted; 7 orders \
            not provided.
            """)
    )

    @Flag(name: .shortAndLong, help: "Add without asking, even on a terminal.")
    var yes = false

    @Flag(help: "Ask before adding each order even when stdin is not a terminal (answers read from stdin).")
    var confirm = false

    @Flag(help: "Print one JSON object per file per line.")
    var json = false

    @OptionGroup var clientOptions: ClientOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var trust: TrustOptions

    @Option(help: ArgumentHelp("Also add the files listed in this file, one path per line (- for stdin).", valueName: "list"))
    var filesFrom: String?

    @Argument(help: ArgumentHelp("Order packages to add.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if yes && confirm { throw ValidationError("--yes and --confirm cannot be used together.") }
    }

    /// Each file's outcome.
    enum Outcome: Sendable {
        case saved(SaveOrderResult, VerificationReport)
        case failed(any Error)
        case unreadable(String)
    }

    /// Verifying and saving, as the operator or for a client.
    struct Saver: Sendable {
        /// The largest archive read: the verifier's limit.
        let limit: Int
        let prepare: @Sendable (Data) -> OrderPreparation
        let save: @Sendable (PreparedOrder) async throws -> SaveOrderResult
    }

    func run() async throws {
        MallocTuning.keepFreedMemory()  // archive after archive: keep their buffers' pages
        let asking = confirm || (!yes && isatty(STDIN_FILENO) == 1)
        if filesFrom == "-" && asking {
            throw ValidationError("--files-from - reads standard input, so it cannot also answer prompts: add --yes.")
        }
        let files = try FileOperands.files(files, from: filesFrom)
        if files.isEmpty { throw ValidationError("Give at least one file to add.") }
        let wallet = try await store.wallet(
            create: true, trust: trust, consent: asking ? TerminalConsentPrompt() : AddWithoutAsking())
        let limit = wallet.orders.verifier.limits.maximumArchiveSize
        let saver: Saver
        if let client = try clientOptions.optionalIdentifier {
            let finance = wallet.financeStore(for: client)
            saver = Saver(
                limit: limit, prepare: { finance.prepareOrder(signedArchive: $0) }, save: { try await finance.saveOrder($0) })
        } else {
            let orders = wallet.orders
            saver = Saver(
                limit: limit, prepare: { orders.prepareOrder(signedArchive: $0) }, save: { try await orders.saveOrder($0) })
        }

        let progress = ProgressBar(total: files.count, enabled: !asking && files.count > 1 && isatty(STDERR_FILENO) == 1)
        var tally = Tally()
        // Verification runs in parallel; saves start in argument order, several at once unless
        // asking (each waits for the previous save of the same order, so versions of one order
        // given in order are stored in order); lines are printed in argument order.
        var saves = SavePipeline(width: asking ? 1 : Self.savesAtOnce, saver: saver)
        func report(_ ended: [SavePipeline.Ended]) {
            for (index, file, outcome) in ended {
                progress.clear()
                tally.count(outcome)
                if json { Output.json(Self.wire(file, outcome)) } else { Output.line(Self.humanLine(file, outcome)) }
                progress.show(done: index + 1, current: file)
            }
        }
        await Concurrently.forEach(files, width: ProcessInfo.processInfo.activeProcessorCount) { path in
            Self.prepare(path, with: saver)
        } handle: { index, file, prepared in
            report(await saves.start(prepared, index: index, file: file))
        }
        report(await saves.finish())
        progress.clear()
        if files.count > 1 { Output.prompt(tally.summary + "\n") }
        if tally.exitStatus != ExitStatus.success { throw ExitCode(tally.exitStatus) }
    }

    /// Saves in flight at once without asking: enough to keep a PostgreSQL server's round trips
    /// overlapped (a lone save waits on about four of them), few enough to stay far inside the
    /// connection pool.
    static let savesAtOnce = 8

    /// Saves started in argument order, at most `width` unfinished; a save of an order starts
    /// after the previous save of the same order has ended. Outcomes come back in argument order.
    struct SavePipeline {
        typealias Ended = (index: Int, file: String, outcome: Outcome)
        let width: Int
        let saver: Saver
        /// In argument order. A save of an order no longer here has ended, so the one to wait for
        /// is the last here with the same order.
        private var inFlight: [(index: Int, file: String, order: FullyQualifiedOrderIdentifier?, save: Task<Outcome, Never>)] = []

        init(width: Int, saver: Saver) {
            self.width = max(1, width)
            self.saver = saver
        }

        /// Starts the save of file `index`; returns the outcomes that had to end to make room.
        mutating func start(_ prepared: Prepared, index: Int, file: String) async -> [Ended] {
            var order: FullyQualifiedOrderIdentifier?
            if case .ready(let ready) = prepared { order = ready.identifier }
            let previous = order.flatMap { order in inFlight.last { $0.order == order }?.save }
            let saver = saver
            let save = Task {
                _ = await previous?.value
                return await AddCommand.save(prepared, with: saver)
            }
            inFlight.append((index, file, order, save))
            var ended: [Ended] = []
            while inFlight.count >= width { ended.append(await endFirst()) }
            return ended
        }

        /// Waits for every save left, in argument order.
        mutating func finish() async -> [Ended] {
            var ended: [Ended] = []
            while !inFlight.isEmpty { ended.append(await endFirst()) }
            return ended
        }

        private mutating func endFirst() async -> Ended {
            let first = inFlight.removeFirst()
            return (first.index, first.file, await first.save.value)
        }
    }

    /// A file read and verified: an order to save, or the outcome that ends this file.
    enum Prepared: Sendable {
        case ready(PreparedOrder)
        case done(Outcome)
    }

    /// Reading and verifying.
    static func prepare(_ path: String, with saver: Saver) -> Prepared {
        let archive: Data
        do {
            switch try FileInput.read(path, limit: saver.limit) {
            case .complete(let data):
                archive = data
            case .tooLarge(let size):
                let report = VerificationReport(oversizedArchiveOf: size, limit: saver.limit)
                return .done(.failed(OrderStoreError.invalidArchive(report)))
            }
        } catch {
            return .done(.unreadable(TrustOptions.reason(error)))
        }
        switch saver.prepare(archive) {
        case .valid(let order): return .ready(order)
        case .invalid(let report): return .done(.failed(OrderStoreError.invalidArchive(report)))
        }
    }

    static func save(_ prepared: Prepared, with saver: Saver) async -> Outcome {
        switch prepared {
        case .done(let outcome):
            return outcome
        case .ready(let order):
            do {
                return .saved(try await saver.save(order), order.report)
            } catch {
                return .failed(error)
            }
        }
    }

    // MARK: - Output

    static func humanLine(_ file: String, _ outcome: Outcome) -> String {
        switch outcome {
        case .saved(let result, _):
            return "\(result.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0)) \(file)"
        case .unreadable(let reason):
            return "unreadable     \(file): \(reason)"
        case .failed(OrderStoreError.invalidArchive(let report)):
            let codes = report.errorCodes.map(\.rawValue).joined(separator: ",")
            let more = report.errors.count > 1 ? " (+\(report.errors.count - 1) more; `orders verify` lists them)" : ""
            let first = report.errors.first.map { issue in (issue.path.map { "\($0): " } ?? "") + issue.message } ?? "invalid"
            return "\(codes) \(file): \(first)\(more)"
        case .failed(let error):
            let issue = WireIssue(error: error)
            return "\(issue.code) \(file): \(issue.message)"
        }
    }

    static func wire(_ file: String, _ outcome: Outcome) -> WireSaveOutcome {
        switch outcome {
        case .saved(let saved, let report): WireSaveOutcome(file: file, result: saved, report: report)
        case .unreadable(let reason): WireSaveOutcome(file: file, code: "io.unreadable", message: reason)
        case .failed(let error): WireSaveOutcome(file: file, error: error)
        }
    }

    /// Counts outcomes and derives the exit status.
    struct Tally {
        var added = 0, newerExisting = 0, cancelled = 0, failed = 0, unreadable = 0
        /// The exit status of each failure (Failure's table).
        var failureStatuses: Set<Int32> = []

        mutating func count(_ outcome: Outcome) {
            switch outcome {
            case .saved(.added, _): added += 1
            case .saved(.newerExisting, _): newerExisting += 1
            case .saved(.cancelled, _): cancelled += 1
            case .failed(let error):
                let status = (error as? any WalletError).map(Failure.status(of:)) ?? ExitStatus.invalid
                failureStatuses.insert(status)
                if status == ExitStatus.usageOrIO { unreadable += 1 } else { failed += 1 }
            case .unreadable: unreadable += 1
            }
        }

        var summary: String {
            let total = added + newerExisting + cancelled + failed + unreadable
            var parts = ["\(added) added", "\(newerExisting) newerExisting", "\(cancelled) cancelled", "\(failed) failed"]
            if unreadable > 0 { parts.append("\(unreadable) unreadable") }
            return "\(total) files: " + parts.joined(separator: ", ")
        }

        var exitStatus: Int32 {
            if unreadable > 0 { return ExitStatus.usageOrIO }
            if let status = Failure.precedence.first(where: failureStatuses.contains) { return status }
            if newerExisting > 0 { return ExitStatus.newerExisting }
            if cancelled > 0 { return ExitStatus.cancelled }
            return ExitStatus.success
        }
    }
}
