import ArgumentParser
import Foundation
import OrderStorage
import WalletOrders
import WalletPrimitives

/// `orders link`: a signed link to an order's customer page on `orders serve`.
struct LinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Print a signed link to a stored order's customer page.",
        discussion: CommandGuide.discussion(
            "link",
            """
            The link is signed with the stored version's authenticationToken (HMAC-SHA256): only \
            the merchant and the order's holders can make one, a new version with a new token ends \
            it, and it expires (at most 400 days ahead). `orders serve` shows the order at it, with \
            Add to Apple Wallet; a wrong or expired link gets the same 404 as an unknown order.
            Exit status: 0 printed, 1 not stored or no authenticationToken, 2 on errors.
            """))

    @OptionGroup var order: OrderIdentifierOptions

    @Option(
        help: ArgumentHelp(
            "When the link stops working: a lifetime (30d, 12h, 90m) or a date (\(DateArgument.expected)).",
            valueName: "when"))
    var expires = "30d"

    @Option(help: ArgumentHelp("Print an absolute URL on this origin (https://orders.example.com).", valueName: "url"))
    var baseURL: String?

    @OptionGroup var clientOptions: ClientOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard let expiry = LinkExpiry(expires, now: Date()) else {
            throw ValidationError("--expires takes a lifetime such as 30d, 12h or 90m, or \(DateArgument.expected).")
        }
        guard expiry.date > Date(), expiry.date.timeIntervalSinceNow <= OrderPageLink.maximumLifetime else {
            throw ValidationError("--expires must be in the future and at most 400 days ahead.")
        }
        if let baseURL {
            guard let url = URL(string: baseURL), ["https", "http"].contains(url.scheme?.lowercased() ?? ""),
                url.host?.isEmpty == false, url.query == nil, url.fragment == nil
            else { throw ValidationError("--base-url takes an origin such as https://orders.example.com.") }
        }
    }

    func run() async throws {
        let reader = try await store.orderReader(client: clientOptions)
        guard let decoded = try await reader.decodedOrder(order.identifier) else {
            Output.error("\(order.identifier.clippedDescription) is not in the store")
            throw ExitCode(ExitStatus.invalid)
        }
        guard let token = decoded.authenticationToken else {
            Output.error("\(order.identifier.clippedDescription) has no authenticationToken: no link can be signed for it")
            throw ExitCode(ExitStatus.invalid)
        }
        let expiry = LinkExpiry(expires, now: Date())?.date ?? Date()
        let link = OrderPageLink(for: order.identifier, authenticationToken: token, expires: expiry)
        let origin = baseURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? ""
        Output.line(origin + link.path)
    }
}

/// `30d`, `12h`, `90m`, or a date as ``DateArgument`` reads it.
struct LinkExpiry {
    var date: Date

    init?(_ text: String, now: Date) {
        if let unit = text.last, let count = Int(text.dropLast()), count > 0, count <= 100_000 {
            let seconds: Double
            switch unit {
            case "d": seconds = 86_400
            case "h": seconds = 3_600
            case "m": seconds = 60
            default: return nil
            }
            date = now.addingTimeInterval(Double(count) * seconds)
        } else if let timestamp = DateArgument.timestamp(text) {
            date = timestamp.date
        } else {
            return nil
        }
    }
}
