import ArgumentParser
import Foundation
import OrderPackage
import WalletPrimitives
import WalletWire

/// `orders pack`: build and sign an order package from a source folder.
struct PackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack",
        abstract: "Build a signed order package from a folder (order.json, images, *.lproj).",
        discussion: CommandGuide.discussion(
            "pack",
            """
            Writes manifest.json (SHA-256 of every file), a detached CMS signature with signingTime, \
            and the zip. Metadata files (.DS_Store, __MACOSX, ._*) are skipped. The key may be \
            encrypted: its passphrase is read from ORDERS_KEY_PASSPHRASE.
            """)
    )

    @Argument(help: ArgumentHelp("The folder whose contents become the package.", valueName: "source-dir"))
    var source: String

    @Option(help: ArgumentHelp("The Order Type ID certificate (PEM or DER).", valueName: "file"))
    var certificate: String

    @Option(help: ArgumentHelp("The certificate's private key (PEM).", valueName: "file"))
    var key: String

    @Option(help: ArgumentHelp("An intermediate certificate to embed (Apple WWDR G4); repeatable.", valueName: "file"))
    var intermediate: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the package.", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("Entry compression: deflate (default) or stored.", valueName: "method"))
    var compression: Compression = .deflate

    @Option(help: ArgumentHelp("How the signer names its certificate.", valueName: "kind"))
    var signerId: SignerId = .issuerSerial

    @Flag(help: "Sign the manifest alone, without signed attributes (and so without signingTime).")
    var noSignedAttributes = false

    @Option(
        help: ArgumentHelp(
            "Use this date (a day or an RFC 3339 date-time) as the signing time (reproducible builds).", valueName: "date"),
        transform: DateArgument.parse)
    var signingTime: RFC3339Timestamp?

    @Flag(help: "Print what was written as JSON ({\"file\", \"bytes\"}).")
    var json = false

    enum Compression: String, ExpressibleByArgument, CaseIterable {
        case deflate, stored
    }

    enum SignerId: String, ExpressibleByArgument, CaseIterable {
        case issuerSerial = "issuer-serial"
        case keyId = "key-id"
    }

    func run() async throws {
        var signer: OrderSigner
        do {
            signer = try OrderSigner(
                certificate: try FileInput.contents(of: certificate, what: "certificate"),
                privateKey: try FileInput.contents(of: key, what: "key"),
                passphrase: ProcessInfo.processInfo.environment["ORDERS_KEY_PASSPHRASE"],
                intermediates: try intermediate.map { try FileInput.contents(of: $0, what: "intermediate") })
        } catch let error as OrderSignerError {
            throw CommandFailure(error.description)
        }
        signer.signerIdentifier = signerId == .keyId ? .subjectKeyIdentifier : .issuerAndSerialNumber
        signer.includesSignedAttributes = !noSignedAttributes

        let instant = signingTime?.date
        let builder = OrderPackageBuilder(
            signer: signer, compression: compression == .stored ? .stored : .deflate,
            clock: { instant ?? Date() })
        let sourceURL = URL(fileURLWithPath: source)
        let package: Data
        do {
            package = try builder.build(directory: sourceURL)
        } catch .unreadableSource(let path, let reason) {
            throw CommandFailure("cannot pack \(path): \(reason)")
        } catch {
            throw CommandFailure("cannot pack \(source): \(error)")
        }
        try FileOutput.write(package, to: output)

        // Packing never refuses a malformed order (tests need those), but says so.
        let orderJSONPath = sourceURL.appendingPathComponent("order.json").path
        if let orderJSON = try? FileInput.read(orderJSONPath, upTo: ArchiveLimits().maximumEntrySize) {
            let validation = OrderValidator().validate(orderJSON)
            for finding in validation.errors + validation.warnings {
                Output.warning("order.json: \(finding.issue)")
            }
            if let certificateType = signer.orderTypeIdentifier, let orderType = validation.summary.orderTypeIdentifier,
                certificateType != orderType
            {
                Output.warning(
                    "the certificate is for \(MessageText.quote(certificateType)), but order.json's orderTypeIdentifier is \(MessageText.quote(orderType))"
                )
            }
        } else {
            Output.warning("\(source) has no order.json")
        }
        // With -o -, standard output carries the package; the confirmation goes to stderr.
        let toStandardError = output == "-"
        if json {
            Output.json(WireFileWritten(file: output, bytes: package.count), toStandardError: toStandardError)
        } else {
            Output.note("packed \(output) (\(package.count) bytes)", toStandardError: toStandardError)
        }
    }
}
