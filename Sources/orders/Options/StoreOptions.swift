import ArgumentParser
import Foundation
import Logging
import WalletOrders
import WalletPostgres
import WalletPrimitives
import WalletSQLite

/// Where the orders and financial data live: `--database URL` (or `ORDERS_DATABASE`) for a
/// PostgreSQL database, else `--store PATH` for the SQLite store, falling back to `ORDERS_STORE`,
/// then `$XDG_DATA_HOME/orders/orders.sqlite`, then `~/.local/share/orders/orders.sqlite`. An
/// explicit `--store` wins over `ORDERS_DATABASE`; giving both options is an error.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The store (SQLite). Default: ORDERS_STORE, else the XDG data folder.", valueName: "path"))
    var store: String?

    @Option(
        help: ArgumentHelp(
            "A PostgreSQL database instead of the SQLite store: postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=…], "
                + "or postgres://USER@/DB?host=/socket/dir. Default: ORDERS_DATABASE.", valueName: "url"))
    var database: String?

    /// The PostgreSQL database, when one is chosen: `--database`, else `ORDERS_DATABASE` unless
    /// `--store` is given.
    var databaseURL: PostgresDatabaseURL? {
        get throws {
            if let database {
                guard store == nil else { throw CommandFailure("give --store or --database, not both") }
                return try PostgresDatabaseURL.parse(database, from: "--database")
            }
            guard store == nil, let text = ProcessInfo.processInfo.environment["ORDERS_DATABASE"], !text.isEmpty else {
                return nil
            }
            return try PostgresDatabaseURL.parse(text, from: "ORDERS_DATABASE")
        }
    }

    var path: String {
        get throws {
            let environment = ProcessInfo.processInfo.environment
            if let store { return store }
            if let store = environment["ORDERS_STORE"], !store.isEmpty { return store }
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/orders/orders.sqlite" }
            guard let home = environment["HOME"], !home.isEmpty else {
                throw CommandFailure("cannot place the store: set --store, ORDERS_STORE or HOME")
            }
            return home + "/.local/share/orders/orders.sqlite"
        }
    }

    /// Opens the store with this deployment's configuration: data types from `ORDERS_DATA_TYPES`,
    /// the trust roots (commands that verify no archive take none), and the prompts the command
    /// uses. Only commands that write pass `create`: a reading command never creates a store (a
    /// missing one is "there is no store at …", exit 2). A command that changes an existing store
    /// without creating one passes `writes`; every other one only reads, and reads a store in a
    /// folder it cannot write (see `SQLiteBackend.Options.readsOnly`). `poolRunByOwner`: a PostgreSQL pool is
    /// run by the caller's `ServiceGroup` (`orders serve`), not by a task of the backend's own.
    func wallet(
        create: Bool = false, writes: Bool = false, trust: TrustOptions? = nil, trustStore: TrustStore? = nil,
        consent: any OrderConsentPrompt = AddWithoutAsking(),
        authorizationPrompt: any AuthorizationPrompt = DenyingAuthorizationPrompt(),
        registrationLimits: RegistrationLimits = .default, consentPolicy: ConsentPolicy = ConsentPolicy(),
        backgroundDelivery: BackgroundDeliveryPolicy = BackgroundDeliveryPolicy(), poolRunByOwner: Bool = false
    ) async throws -> WalletStore {
        let verifier =
            try trustStore.map { OrderVerifier(trustStore: $0) } ?? trust.map { OrderVerifier(trustStore: try $0.trustStore()) }
            ?? OrderVerifier()
        let configuration = WalletConfiguration(
            availability: try .fromEnvironment(), verifier: verifier, orderConsent: consent,
            authorizationPrompt: authorizationPrompt, registrationLimits: registrationLimits, consent: consentPolicy,
            backgroundDelivery: backgroundDelivery, logger: Logger(label: "orders"))
        if let url = try databaseURL {
            var logger = Logger(label: "orders.postgres")
            logger.logLevel = .error
            let backend = try await PostgresBackend.open(
                url, options: .init(createIfMissing: create, poolLifetime: poolRunByOwner ? .runByOwner : .untilClosed),
                logger: logger)
            return WalletStore(backend: backend, configuration: configuration)
        }
        return try WalletStore(
            path: try path, configuration: configuration, createIfMissing: create, readsOnly: !create && !writes,
            fileMode: try Self.fileMode())
    }

    /// `ORDERS_STORE_MODE`: `0600` (the default: the owner alone) or `0640` (the owner's group may
    /// read), the mode a new store's files are created with whatever the umask.
    static func fileMode() throws -> StoreFileMode {
        guard let text = ProcessInfo.processInfo.environment["ORDERS_STORE_MODE"], !text.isEmpty else { return .ownerOnly }
        guard let mode = StoreFileMode(rawValue: text) else {
            throw CommandFailure("ORDERS_STORE_MODE must be 0600 or 0640, not \(MessageText.quote(text))")
        }
        return mode
    }
}

/// `--client ID`: who the call is made for (default `ORDERS_CLIENT`).
struct ClientOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The client the call is made for (default: ORDERS_CLIENT).", valueName: "id"))
    var client: String?

    /// The client, if one was given.
    var optionalIdentifier: ClientIdentifier? {
        get throws {
            guard let raw = client ?? ProcessInfo.processInfo.environment["ORDERS_CLIENT"], !raw.isEmpty else { return nil }
            return try Self.parse(raw)
        }
    }

    static func parse(_ raw: String) throws -> ClientIdentifier {
        guard let identifier = ClientIdentifier(rawValue: raw) else {
            throw CommandFailure("\(MessageText.quote(raw)) is not a client identifier (letters, digits, '.', '-', '_')")
        }
        return identifier
    }

    /// The client, which must be given.
    var identifier: ClientIdentifier {
        get throws {
            guard let identifier = try optionalIdentifier else { throw CommandFailure("give --client or set ORDERS_CLIENT") }
            return identifier
        }
    }
}

/// `--type T --id I`: one order's fully qualified identifier.
struct OrderIdentifierOptions: ParsableArguments {
    @Option(name: .customLong("type"), help: ArgumentHelp("The order type identifier.", valueName: "orderTypeIdentifier"))
    var orderTypeIdentifier: String

    @Option(name: .customLong("id"), help: ArgumentHelp("The order identifier.", valueName: "orderIdentifier"))
    var orderIdentifier: String

    var identifier: FullyQualifiedOrderIdentifier {
        FullyQualifiedOrderIdentifier(orderTypeIdentifier: orderTypeIdentifier, orderIdentifier: orderIdentifier)
    }
}

extension PostgresDatabaseURL {
    /// `text` from the option or variable `source`; a URL that cannot be used is a usage error
    /// naming `source` and what is wrong (never the password).
    static func parse(_ text: String, from source: String) throws(CommandFailure) -> PostgresDatabaseURL {
        do {
            return try PostgresDatabaseURL(text)
        } catch {
            switch error {
            case .malformed(let reason): throw CommandFailure("\(source) is not a usable database URL: \(reason)")
            }
        }
    }
}
