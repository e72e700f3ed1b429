// swift-tools-version: 6.1
// Benchmarks live in their own package so the main build and CI never compile the benchmark
// harness. Run them with `Benchmarks/run.sh` (or `swift package benchmark` in this folder).
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, and a clone may be called anything.
let mainPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let mainIdentity = mainPackage.lastPathComponent.lowercased()

let package = Package(
    name: "wallet-orders-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The bare handler `orders serve` is compared with (run.sh serve), and the webhook
        // receiver of the background-delivery benchmarks.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
    ],
    targets: [
        .executableTarget(
            name: "OrderVerification",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OrderPackage", package: mainIdentity),
            ],
            path: "Benchmarks/OrderVerification",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "OrderStore",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OrderPackage", package: mainIdentity),
                .product(name: "OrderStorage", package: mainIdentity),
                .product(name: "WalletSQLite", package: mainIdentity),
                .product(name: "WalletPrimitives", package: mainIdentity),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/OrderStore",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "FinanceQueries",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WalletOrders", package: mainIdentity),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/FinanceQueries",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "BackgroundDelivery",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WalletOrders", package: mainIdentity),
                .product(name: "WalletOutbox", package: mainIdentity),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/BackgroundDelivery",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "OrderPages",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OrderPackage", package: mainIdentity),
                .product(name: "OrderRendering", package: mainIdentity),
            ],
            path: "Benchmarks/OrderPages",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "BareHandler",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/BareHandler"
        ),
    ],
    swiftLanguageModes: [.v6]
)
