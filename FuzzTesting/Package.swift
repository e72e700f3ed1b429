// swift-tools-version: 6.1
// libFuzzer targets for every parser that faces bytes from outside (Scripts/fuzz.sh builds and runs
// them; FuzzTesting/README.md says how). Built with `-sanitize=fuzzer,address` in debug, so the
// targets may reach internal API through `@testable import`.
import PackageDescription

let package = Package(
    name: "FuzzTesting",
    dependencies: [
        .package(name: "wallet-orders", path: "..")
    ],
    targets: [
        .target(
            name: "FuzzSupport", dependencies: [.product(name: "OrderPackage", package: "wallet-orders")],
            path: "Sources/FuzzSupport"),
        fuzzer("FuzzZipArchive", ["OrderPackage"]),
        fuzzer("FuzzManifest", ["OrderPackage"]),
        fuzzer("FuzzJSON", ["WalletPrimitives"]),
        fuzzer("FuzzOrderJSON", ["OrderPackage"]),
        fuzzer("FuzzSignature", ["OrderPackage"]),
        fuzzer("FuzzSignatureDifferential", ["OrderPackage"]),
        fuzzer("FuzzOrderVerifier", ["OrderPackage"]),
        fuzzer("FuzzFinanceFeed", ["FinanceData"]),
        fuzzer("FuzzServiceRequest", ["OrdersWebProtocol", "OrderStorage", "WalletPrimitives", "FinanceData"]),
    ],
    swiftLanguageModes: [.v6]
)

/// One libFuzzer executable: `Sources/NAME/main.swift` defines `LLVMFuzzerTestOneInput`.
func fuzzer(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: "wallet-orders") },
        path: "Sources/\(name)"
    )
}
