import ArgumentParser
import Foundation
import OrderPackage
import WalletPrimitives
import WalletWire

/// `orders verify`: check archives as strictly as Wallet does.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify order packages: archive, manifest, signature and order.json.",
        discussion: CommandGuide.discussion(
            "verify",
            """
            Prints ✓ or ✗ per file, then each problem with its code and where (a JSON path or an \
            entry name). With --json, prints one JSON object per file per line.
            Exit status: 0 all valid, 1 any invalid, 2 usage or I/O error.
            """)
    )

    @Flag(help: "Print one JSON object per file per line (JSON Lines).")
    var json = false

    @OptionGroup var trust: TrustOptions

    @Flag(help: "Judge certificate validity at the signature's signingTime instead of now.")
    var atSigningTime = false

    @Option(
        help: ArgumentHelp("Judge certificate validity at this date (a day or an RFC 3339 date-time).", valueName: "date"),
        transform: DateArgument.parse)
    var at: RFC3339Timestamp?

    @Option(help: ArgumentHelp("Also verify the files listed in this file, one path per line (- for stdin).", valueName: "list"))
    var filesFrom: String?

    @Argument(help: ArgumentHelp("Order packages to verify.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if atSigningTime && at != nil {
            throw ValidationError("--at-signing-time and --at cannot be used together.")
        }
    }

    func run() async throws {
        MallocTuning.keepFreedMemory()  // archive after archive: keep their buffers' pages
        let files = try FileOperands.files(files, from: filesFrom)
        if files.isEmpty { throw ValidationError("Give at least one file to verify.") }
        let verifier = OrderVerifier(trustStore: try trust.trustStore())
        let time: VerificationTime =
            if atSigningTime { .signingTime } else if let at { .at(at.date) } else {
                .now
            }

        // The work closure runs once per file: it captures these values, not the whole command.
        let json = json
        var sawInvalid = false
        var sawUnreadable = false
        await Concurrently.forEach(files, width: ProcessInfo.processInfo.activeProcessorCount) { path in
            Result {
                switch try FileInput.read(path, limit: verifier.limits.maximumArchiveSize) {
                case .complete(let archive):
                    let report = verifier.verify(archive, at: time)
                    // The archive's digest is computed on first read: here, on the worker, when
                    // the JSON output prints it; the text output never reads it.
                    if json { _ = report.archiveSHA256 }
                    return report
                case .tooLarge(let size):
                    return VerificationReport(oversizedArchiveOf: size, limit: verifier.limits.maximumArchiveSize)
                }
            }
        } handle: { _, file, result in
            switch result {
            case .success(let report):
                sawInvalid = sawInvalid || !report.isValid
                if json {
                    Output.json(WireVerificationReport(file: file, report: report))
                } else {
                    Output.line(ReportFormatter.human(file: file, report: report))
                }
            case .failure(let error):
                sawUnreadable = true
                Output.error("cannot read \(file): \(TrustOptions.reason(error))")
            }
        }
        if sawUnreadable { throw ExitCode(ExitStatus.usageOrIO) }
        if sawInvalid { throw ExitCode(ExitStatus.invalid) }
    }
}
