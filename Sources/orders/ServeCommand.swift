import ArgumentParser
import Foundation
import Logging
import OrdersService
import WalletOrders

/// `orders serve`: Apple's Orders web service, the merchant API, `/health` and `/metrics` over
/// the store, until SIGTERM or SIGINT (which drain in-flight requests and exit 0).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve Apple's Orders web service and the merchant API over the store.",
        discussion: """
            The first line on standard output is `listening on http://HOST:PORT` (with --port 0, \
            the port the system chose). SIGTERM or SIGINT stop accepting connections, finish the \
            requests in flight and exit 0. Request logs go to standard error (ORDERS_LOG_LEVEL, \
            default info).
            """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var trust: TrustOptions

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "host"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "port"))
    var port = 8080

    @Option(
        name: .customLong("base-path"),
        help: ArgumentHelp("The path of the webServiceURL in order.json, where Apple's endpoints live.", valueName: "path"))
    var basePath = "/"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535, not \(port)") }
        guard basePath.hasPrefix("/") else { throw ValidationError("--base-path must start with '/'") }
    }

    func run() async throws {
        FileDescriptorLimit.raiseToMaximum()
        let wallet = try storeOptions.wallet(create: true, trust: trust)
        var logger = Logger(label: "orders.serve")
        logger.logLevel = ProcessInfo.processInfo.environment["ORDERS_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        let service = OrdersService(
            wallet: wallet, configuration: OrdersService.Configuration(basePath: basePath, logger: logger))
        let host = self.host
        let application = service.application(host: host, port: port) { port in
            let shownHost = host.contains(":") ? "[\(host)]" : host
            Output.line("listening on http://\(shownHost):\(port)")
        }
        do {
            try await application.runService()
        } catch {
            throw CommandFailure("the service stopped: \(error)")
        }
        try? await wallet.backend.close()
    }
}

/// A server holds one descriptor per connection: raise the soft limit to the hard one, as
/// servers do, rather than fail at 1024 connections.
enum FileDescriptorLimit {
    static func raiseToMaximum() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
