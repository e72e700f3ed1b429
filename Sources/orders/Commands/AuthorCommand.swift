import ArgumentParser
import Foundation
import OrderPackage
import WalletOrders
import WalletPrimitives
import WalletWire

/// `orders author`: the next version of an order from JSON, signed with the type's identity.
struct AuthorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "author",
        abstract:
            "Author an order's next version from order.json or a merge patch; sign it with the type's identity and save it.",
        discussion: CommandGuide.discussion(
            "author",
            """
            The service owns updatedAt (later than the stored version's), createdAt, the identifiers, \
            and fills authenticationToken and webServiceURL when absent (docs/authoring.md). The type \
            needs a signing identity (orders signing add). Registered devices are pushed by orders serve.
            """))

    @Option(name: .customLong("type"), help: ArgumentHelp("The order type identifier.", valueName: "type"))
    var orderType: String

    @Option(name: .customLong("id"), help: ArgumentHelp("The order identifier.", valueName: "id"))
    var orderIdentifier: String

    @Argument(help: ArgumentHelp("The whole order.json of the new version.", valueName: "order.json"))
    var orderJSON: String?

    @Option(help: ArgumentHelp("An RFC 7396 merge patch against the current order.json.", valueName: "patch.json"))
    var patch: String?

    @Option(
        help: ArgumentHelp(
            "A folder with the package's other files (images, *.lproj); default: the current version's.", valueName: "dir"))
    var resources: String?

    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp(
            "The service's public URL with its base path (https://wallet.example.com/): every authored order's webServiceURL.",
            valueName: "url"))
    var publicURL: String?

    @OptionGroup var webServiceURLs: WebServiceURLOptions

    @Flag(help: "Print JSON.")
    var json = false

    @OptionGroup var store: StoreOptions
    @OptionGroup var trust: TrustOptions

    func validate() throws {
        guard (orderJSON == nil) != (patch == nil) else { throw ValidationError("give either order.json or --patch") }
        guard resources == nil || orderJSON != nil else { throw ValidationError("--resources goes with order.json") }
    }

    func run() async throws {
        let content: OrderAuthoringContent
        if let patch {
            content = .mergePatch(try FileInput.contents(of: patch, what: "merge patch"))
        } else {
            let files = try resources.map { folder in
                do {
                    return try OrderPackageBuilder.sources(in: URL(fileURLWithPath: folder))
                } catch {
                    throw CommandFailure("cannot read \(folder): \(error)")
                }
            }
            content = .replace(orderJSON: try FileInput.contents(of: orderJSON ?? "", what: "order.json"), resources: files)
        }
        let wallet = try await store.wallet(create: true, trust: trust)
        let identifier = FullyQualifiedOrderIdentifier(orderTypeIdentifier: orderType, orderIdentifier: orderIdentifier)
        let authored: AuthoredOrder
        do {
            authored = try await wallet.authorOrder(
                identifier, content: content,
                webService: try webServiceURLs.policy(serviceURL: publicURL))
        } catch let error as any WalletError {
            // As the merchant API answers it: every finding at its path, or the error document.
            if json {
                Output.json(WireError(error))
            } else {
                var lines = [Failure.line(error)]
                if case .invalidArchive(let report) = error as? OrderStoreError { lines += ReportFormatter.findings(report) }
                Output.error(lines.joined(separator: "\n"))
            }
            throw ExitCode(Failure.status(of: error))
        }
        if json {
            Output.json(
                WireAuthoredOrder(
                    authored,
                    customerPage: OrderPageLink.answerPath(
                        for: identifier, authenticationToken: authored.orderDetails.authenticationToken, now: Date())))
        } else {
            Output.line(
                "\(authored.isFirstVersion ? "created" : "updated") \(orderType) \(orderIdentifier) "
                    + "updatedAt \(authored.updatedAt.text) sha256 \(authored.archiveSHA256)")
        }
    }
}
