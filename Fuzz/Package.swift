// swift-tools-version:6.0
import PackageDescription

// A libFuzzer target for ReceiptKit's parsers and verifier. It is a package of its own so that the main build never
// needs the fuzzer runtime. Build and run: see docs/receipts.md.
let package = Package(
    name: "ReceiptFuzz",
    dependencies: [.package(name: "OpenStoreKit", path: "..")],
    targets: [
        .executableTarget(
            name: "ReceiptFuzzer",
            dependencies: ["FuzzerEntry", .product(name: "ReceiptKit", package: "OpenStoreKit")]
        ),
        .target(name: "FuzzerEntry"),
    ]
)
