// swift-tools-version: 6.1
import PackageDescription

// A shop's backend that uses wallet-orders as any dependent would: by path here, by the
// repository's URL and a version elsewhere. CI builds it and sends it requests
// (Scripts/check-example.sh).
let package = Package(
    name: "shop-backend",
    dependencies: [
        // Named: a path dependency is otherwise known by its folder's name, which a clone chooses.
        .package(name: "wallet-orders", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "ShopBackend",
            dependencies: [
                .product(name: "WalletOrders", package: "wallet-orders"),
                .product(name: "WalletPostgres", package: "wallet-orders"),
                .product(name: "OrdersService", package: "wallet-orders"),
                .product(name: "WalletOutbox", package: "wallet-orders"),
                .product(name: "WalletWire", package: "wallet-orders"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
