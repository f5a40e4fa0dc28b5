// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for OpenStoreKit's parsers: receipts and JWS (ReceiptKit), feeds (FeedRunner) and `.storekit`
// files (StoreSimulator). It is a package of its own so that the main build never needs the fuzzer runtime. Build and
// run: see docs/receipts.md, docs/jws.md and docs/feeds.md.
let package = Package(
    name: "ReceiptFuzz",
    dependencies: [.package(name: "OpenStoreKit", path: "..")],
    targets: [
        .executableTarget(
            name: "ReceiptFuzzer",
            dependencies: ["FuzzerEntry", .product(name: "ReceiptKit", package: "OpenStoreKit")]
        ),
        .executableTarget(
            name: "FeedFuzzer",
            dependencies: ["FuzzerEntry", .product(name: "FeedRunner", package: "OpenStoreKit")]
        ),
        .executableTarget(
            name: "StoreKitFuzzer",
            dependencies: ["FuzzerEntry", .product(name: "StoreSimulator", package: "OpenStoreKit")]
        ),
        .executableTarget(
            name: "JWSFuzzer",
            dependencies: ["FuzzerEntry", .product(name: "ReceiptKit", package: "OpenStoreKit")]
        ),
        .target(name: "FuzzerEntry"),
    ]
)
