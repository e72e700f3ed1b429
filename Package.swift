// swift-tools-version: 6.1
import PackageDescription

/// What every audience module of the service depends on.
let serviceAudience: [Target.Dependency] = [
    "ServiceCore", "OrdersWebProtocol", "WalletOrders", "WalletWire", "OrderRendering",
    .product(name: "Hummingbird", package: "hummingbird"),
    .product(name: "Mustache", package: "swift-mustache"),
    .product(name: "HTTPTypes", package: "swift-http-types"),
    .product(name: "Logging", package: "swift-log"),
    .product(name: "NIOCore", package: "swift-nio"),
]

let package = Package(
    name: "wallet-orders",
    products: [
        .library(name: "WalletPrimitives", targets: ["WalletPrimitives"]),
        .library(name: "OrderPackage", targets: ["OrderPackage"]),
        .library(name: "OrderStorage", targets: ["OrderStorage"]),
        .library(name: "WalletCore", targets: ["WalletCore"]),
        .library(name: "FinanceData", targets: ["FinanceData"]),
        .library(name: "WalletConsent", targets: ["WalletConsent"]),
        .library(name: "WalletStorage", targets: ["WalletStorage"]),
        .library(name: "WalletSQLite", targets: ["WalletSQLite"]),
        .library(name: "WalletPostgres", targets: ["WalletPostgres"]),
        .library(name: "WalletOrders", targets: ["WalletOrders"]),
        .library(name: "WalletWire", targets: ["WalletWire"]),
        .library(name: "OrdersWebProtocol", targets: ["OrdersWebProtocol"]),
        .library(name: "OrdersService", targets: ["OrdersService"]),
        .library(name: "WalletOutbox", targets: ["WalletOutbox"]),
        .library(name: "OrderRendering", targets: ["OrderRendering"]),
        .executable(name: "orders", targets: ["orders"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The service (issue 9). Hummingbird without its swift-configuration trait: we read our
        // own flags, and it keeps one more package out of every from-scratch build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The HTTP client of the service tests (HummingbirdTesting builds it anyway), and soon of
        // APNs pushes.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Metrics and spans through the server ecosystem's APIs (issue 42): the service records
        // through swift-metrics (swift-prometheus the default backend) and makes spans through
        // swift-distributed-tracing, so an operator bootstraps the backend and tracer they run.
        // Both already in the graph (Hummingbird, postgres-nio, swift-prometheus).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // The PostgreSQL backend (issue 10): connection pool, extended-protocol statements, TLS.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Already in the graph through Hummingbird; named so the service can catch NIOHTTP1's
        // parser error (a malformed chunked body is the client's 400, not our 500).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Also in the graph already (Hummingbird, postgres-nio, async-http-client); named because
        // modules here import them directly: TLS configuration, HTTP field types, NIO's
        // HTTP-types channel handlers.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // The data owner's password (issue 25): bcrypt from hummingbird-auth's HummingbirdBcrypt,
        // a C implementation with no other dependency (the package's swift-crypto is resolved,
        // never built: nothing here uses its other products). Pages: Mustache templates.
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // System libraries: headers and link flags come from pkg-config; the Debian packages are
        // installed by `.ci/run` (and named here so SwiftPM can suggest them).
        .systemLibrary(
            name: "CZip",
            pkgConfig: "libzip",
            providers: [.apt(["libzip-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // zlib (installed with libzip-dev, which depends on it): entries' data are inflated from
        // their raw deflate streams (EntryDataReader), libzip reading only the directory.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Function wrappers for OpenSSL macros Swift cannot import (stack accessors, OPENSSL_free).
        .target(name: "COpenSSLShims", dependencies: ["COpenSSL"]),
        // CRC-32 with PCLMULQDQ: zip entries' checksums at several times zlib's speed (issue 44).
        .target(name: "CCRC32"),

        // The bottom layer: no C, no database. RFC 3339 timestamps, ISO 8601 durations, exact
        // decimals, JSON value/parser/path, message quoting, the error protocol.
        .target(name: "WalletPrimitives"),

        // Bytes → verdict, and sources → signed bytes.
        .target(
            name: "OrderPackage",
            dependencies: ["WalletPrimitives", "CZip", "CZlib", "CCRC32", "COpenSSL", "COpenSSLShims"]
        ),

        // An order → HTML as Wallet shows it, with SVG barcodes: for `orders preview`, the
        // customer's order page and the console. No Hummingbird; Mustache for the templates.
        .target(
            name: "OrderRendering",
            dependencies: ["OrderPackage", "WalletPrimitives", .product(name: "Mustache", package: "swift-mustache")],
            // The pages' words, one file per language, compiled in: the binary needs no resource
            // folder beside it.
            resources: [
                .embedInCode("Strings/en.json"), .embedInCode("Strings/de.json"), .embedInCode("Strings/fr.json"),
                .embedInCode("Strings/es.json"), .embedInCode("Strings/ja.json"), .embedInCode("Strings/zh-Hans.json"),
            ]
        ),

        // Tracking providers' webhook bodies and signatures → shipment events → what they change
        // in an order's fulfillments: pure parsing and mapping (docs/tracking.md). No HTTP, no
        // storage: the routes live in MerchantAPI, the versions are made by authoring.
        .target(
            name: "OrderTracking",
            dependencies: ["OrderPackage", "WalletPrimitives"]
        ),

        // What orders and financial data share: data types and availability, restriction,
        // clients, grants and entitlements, FinanceError, and the one database file.
        .target(
            name: "WalletCore",
            dependencies: [
                "WalletPrimitives",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Verified orders kept by fully qualified identifier: saveOrder / containsOrder, the
        // repository protocols; no SQL (backends implement them).
        .target(
            name: "OrderStorage",
            dependencies: ["OrderPackage", "WalletCore", "WalletPrimitives"]
        ),

        // Accounts, balances and transactions with FinanceKit's names: queries (Predicate → SQL or
        // in memory), history streams and tokens, feed ingestion.
        .target(
            name: "FinanceData",
            dependencies: [
                "WalletPrimitives", "WalletCore",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The data owner's consent on the network: the owner's password and sessions, registered
        // clients, OAuth codes with PKCE, tokens, one-off transaction picks; the repository
        // protocol. No SQL, no HTTP.
        .target(
            name: "WalletConsent",
            dependencies: [
                "WalletCore", "WalletPrimitives", "OrderPackage",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            ]
        ),

        // The storage layer: what a backend provides (every repository, a transaction spanning
        // them) and the SQL rendering that SQL backends share. No database library.
        .target(
            name: "WalletStorage",
            dependencies: [
                "WalletCore", "OrderStorage", "FinanceData", "WalletConsent",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),

        // The embedded SQLite backend: the only module that imports GRDB. Owns every table and
        // the one migrator.
        .target(
            name: "WalletSQLite",
            dependencies: [
                "WalletStorage", "WalletCore", "OrderStorage", "FinanceData", "WalletPrimitives",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for running the statements GRDB compiled (PreparedStatement).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),

        // The server backend: PostgreSQL (and engines speaking its protocol) through postgres-nio;
        // the only module that imports it. Owns its own migrations.
        .target(
            name: "WalletPostgres",
            dependencies: [
                "WalletStorage", "WalletCore", "OrderStorage", "FinanceData", "WalletPrimitives",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // The pool's own error type, which PostgresClient's leases throw: named only to
                // say in words what it means (PostgresFailure).
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                // Its own event loop group (PostgresEventLoops), apart from the HTTP server's.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),

        // The FinanceStore facade with FinanceKit's names: what `import WalletOrders` gives.
        .target(
            name: "WalletOrders",
            dependencies: [
                "OrderPackage", "OrderStorage", "WalletCore", "FinanceData", "WalletStorage", "WalletSQLite", "WalletConsent",
                "OrderTracking", .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The JSON the CLI prints and the service will serve: Codable output types, one encoder.
        .target(
            name: "WalletWire",
            dependencies: ["WalletPrimitives", "OrderPackage", "OrderStorage", "WalletCore", "FinanceData", "WalletConsent"]),
        // The command-line tool.
        .executableTarget(
            name: "orders",
            dependencies: [
                "OrderPackage",
                "OrderStorage",
                "WalletOrders",
                "WalletPostgres",
                "WalletSQLite",
                "WalletStorage",
                "WalletWire",
                "OrdersService",
                "WalletOutbox",
                "OrderRendering",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The Orders web service's request parsing without a server: header values (Authorization,
        // HTTP-dates, entity tags), device bodies, path identifiers, the request error. Apart from
        // OrdersService so FuzzTesting reaches it without building Hummingbird.
        .target(name: "OrdersWebProtocol", dependencies: ["WalletPrimitives"]),
        // The service's HTTP face, one module per audience over a small core; no audience module
        // imports another (LayeringTests), and `OrdersService` composes them.
        //
        // The core every audience uses: the base request context, the one status table, body
        // reading, limits, the log line, metrics, forwarded clients, forms, cookies and the pages'
        // words.
        .target(
            name: "ServiceCore",
            dependencies: [
                "OrdersWebProtocol", "WalletOrders", "WalletWire", "OrderRendering",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            // The pages' words, one file per language, compiled in (as OrderRendering's).
            resources: [
                .embedInCode("Pages/Strings/en.json"), .embedInCode("Pages/Strings/de.json"),
                .embedInCode("Pages/Strings/fr.json"), .embedInCode("Pages/Strings/es.json"),
                .embedInCode("Pages/Strings/ja.json"), .embedInCode("Pages/Strings/zh-Hans.json"),
            ]
        ),
        // Apple's Orders web service: the caller is an order's authentication token.
        .target(name: "DeviceAPI", dependencies: serviceAudience),
        // The merchant API: the caller is an API key with its order types; the OpenAPI document.
        .target(
            name: "MerchantAPI", dependencies: serviceAudience,
            // docs/openapi.json, served as it is (a link: one source).
            resources: [.embedInCode("openapi.json")]
        ),
        // Financial data for third-party clients: OAuth's token, revocation and metadata, the
        // data API, history streams, background-delivery registration.
        .target(name: "FinanceAPI", dependencies: serviceAudience),
        // The data owner's pages: sign-in, the consent sheet, the transaction picker, Settings, the
        // operator console.
        .target(name: "OwnerPages", dependencies: serviceAudience),
        // The customer's order page behind a signed link, and Add to Apple Wallet.
        .target(name: "CustomerPages", dependencies: serviceAudience),
        // The assembly: the audiences on one router behind the core's middleware, and `orders
        // serve` as one ServiceGroup (backend, outbox drainers, application).
        .target(
            name: "OrdersService",
            dependencies: [
                "ServiceCore", "DeviceAPI", "MerchantAPI", "FinanceAPI", "OwnerPages", "CustomerPages",
                "OrdersWebProtocol", "WalletOrders", "WalletOutbox",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // What the service sends on its own, through one outbox drainer: APNs pushes (the HTTP/2
        // client, certificate or .p8 token) and background deliveries (signed webhooks, their
        // address check, the decisions' planner). ES256 for
        // token authentication is signed with the system OpenSSL we already link (OrderPackage's
        // wrappers), not swift-crypto: that would compile a second BoringSSL in every CI build.
        .target(
            name: "WalletOutbox",
            dependencies: [
                "OrderStorage", "OrderPackage", "WalletPrimitives", "FinanceData", "WalletCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The system resolver on NIO's thread pool (background deliveries' address check).
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Test support: TestArchives/expectations.tsv, signed test orders, raw zips and DER.
        .target(name: "TestArchiveTable", dependencies: ["OrderPackage", "CZlib"], path: "Tests/TestArchiveTable"),
        // The backend contract: backends to run it against, fixtures, the in-memory reference.
        .target(
            name: "StorageContract",
            dependencies: [
                "TestArchiveTable", "WalletStorage", "WalletSQLite", "WalletPostgres", "OrderStorage", "OrderPackage",
                "FinanceData", "WalletCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/StorageContract"),
        .testTarget(name: "WalletPrimitivesTests", dependencies: ["WalletPrimitives"]),
        .testTarget(
            name: "WalletOutboxTests",
            dependencies: [
                "WalletOutbox", "OrderStorage", "WalletOrders", "TestArchiveTable", "FinanceData", "OrderPackage",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "WalletCoreTests", dependencies: ["WalletCore", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "WalletConsentTests", dependencies: ["WalletConsent", "WalletCore"]),
        .testTarget(
            name: "WalletWireTests",
            dependencies: [
                "WalletWire", "OrderPackage", "OrderStorage", "WalletCore", "WalletPrimitives", "TestArchiveTable",
            ]),
        .testTarget(name: "OrderPackageTests", dependencies: ["OrderPackage", "TestArchiveTable"]),
        .testTarget(
            name: "OrderRenderingTests", dependencies: ["OrderRendering", "OrderPackage", "WalletPrimitives", "TestArchiveTable"]),
        .testTarget(name: "OrderStorageTests", dependencies: ["OrderStorage", "StorageContract", "TestArchiveTable"]),
        .testTarget(name: "FinanceDataTests", dependencies: ["FinanceData", "WalletCore", "TestArchiveTable"]),
        .testTarget(
            name: "WalletOrdersTests", dependencies: ["WalletOrders", "TestArchiveTable", "WalletPostgres", "StorageContract"]),
        // Every backend runs the whole contract (StorageContract's BackendFactory.all).
        .testTarget(
            name: "StorageContractTests",
            dependencies: [
                "StorageContract", "WalletStorage", "OrderStorage", "OrderPackage", "FinanceData", "WalletCore", "WalletConsent",
                "WalletPrimitives", "TestArchiveTable",
            ]),
        // What only the SQLite backend has: the file, its identity and damage, GRDB-level checks.
        .testTarget(
            name: "WalletSQLiteTests",
            dependencies: [
                "WalletSQLite", "WalletStorage", "WalletOrders", "StorageContract", "TestArchiveTable",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]),
        // Providers' bodies (Tests/Fixtures/tracking, written from their documentation) → events →
        // fulfillment patches.
        .testTarget(
            name: "OrderTrackingTests",
            dependencies: ["OrderTracking", "OrderPackage", "WalletPrimitives", "TestArchiveTable"]
        ),
        // What only the PostgreSQL backend has: its URL, dialect, migrations and connection errors.
        .testTarget(
            name: "WalletPostgresTests",
            dependencies: [
                "WalletPostgres", "WalletStorage", "WalletCore", "FinanceData", "StorageContract", "TestArchiveTable",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        // The service: in process (HummingbirdTesting, live) and the built `orders serve`.
        .testTarget(
            name: "OrdersServiceTests",
            dependencies: [
                "orders", "OrdersService", "WalletOutbox", "WalletOrders", "WalletWire", "OrderStorage", "WalletCore",
                "OrderPackage", "TestArchiveTable", "WalletPostgres", "StorageContract", "ServiceCore", "DeviceAPI",
                "MerchantAPI", "FinanceAPI", "OwnerPages", "CustomerPages",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                // The fake APNs: an HTTP/2 TLS server (NIOHTTP2 is built for async-http-client).
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]),
        // The documentation's Swift blocks are snippets (compiled) or the example's manifest.
        .testTarget(name: "DocumentationTests"),
        // Fuzz findings in the request parsers replayed as tests (FuzzTesting/Regressions).
        .testTarget(name: "OrdersWebProtocolTests", dependencies: ["OrdersWebProtocol", "WalletPrimitives"]),
        .testTarget(
            name: "OrdersCLITests",
            dependencies: [
                "orders", "OrderPackage", "OrderStorage", "WalletCore", "WalletSQLite", "FinanceData", "WalletPrimitives",
                "OrdersService", "OrdersWebProtocol", "WalletOrders", "WalletPostgres", "OrderTracking",
                "TestArchiveTable", "StorageContract",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// The documentation plugin, only when asked for, so that CI and ordinary builds never resolve or
// build it:
//   WALLET_ORDERS_DOCS=1 swift package generate-documentation --target WalletOrders
if Context.environment["WALLET_ORDERS_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
