// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "wallet-orders",
    products: [
        .library(name: "OrderPackage", targets: ["OrderPackage"]),
        .executable(name: "orders", targets: ["orders"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
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
        // Function wrappers for OpenSSL macros Swift cannot import (stack accessors, OPENSSL_free).
        .target(name: "COpenSSLShims", dependencies: ["COpenSSL"]),

        // Bytes → verdict, and sources → signed bytes.
        .target(
            name: "OrderPackage",
            dependencies: ["CZip", "COpenSSL", "COpenSSLShims"]
        ),

        // The command-line tool.
        .executableTarget(
            name: "orders",
            dependencies: [
                "OrderPackage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Test support: TestArchives/expectations.tsv, shared by the library and CLI tests.
        .target(name: "TestArchiveTable", dependencies: ["OrderPackage"], path: "Tests/TestArchiveTable"),
        .testTarget(name: "OrderPackageTests", dependencies: ["OrderPackage", "TestArchiveTable"]),
        .testTarget(name: "OrdersCLITests", dependencies: ["orders", "OrderPackage", "TestArchiveTable"]),
    ],
    swiftLanguageModes: [.v6]
)
