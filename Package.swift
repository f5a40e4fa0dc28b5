// swift-tools-version:6.1
import PackageDescription

// OpenStoreKit: StoreKit 1's payment queue for Linux over a simulated App Store.
// No package dependencies: the toolchain, plus OpenSSL and SQLite as system libraries, and GNU libmicrohttpd for the
// App Store server side, built only with the package trait `Server` (`swift build --traits Server`), so that a machine
// without libmicrohttpd's headers builds everything else. Likewise libpq, for Ledger databases on a PostgreSQL server,
// only with the trait `Postgres`.
let package = Package(
    name: "OpenStoreKit",
    products: [
        .library(name: "OpenStoreKit", targets: ["OpenStoreKit"]),
        .library(name: "OpenStoreKitTest", targets: ["OpenStoreKitTest"]),
        .library(name: "OpenStoreKit2", targets: ["OpenStoreKit2"]),
        // `import StoreKit` and `import StoreKitTest` on Linux: the two faces above under Apple's module names.
        .library(name: "StoreKit", targets: ["StoreKit"]),
        .library(name: "StoreKitTest", targets: ["StoreKitTest"]),
        .library(name: "StoreModels", targets: ["StoreModels"]),
        .library(name: "ReceiptKit", targets: ["ReceiptKit"]),
        .library(name: "Ledger", targets: ["Ledger"]),
        .library(name: "StoreSimulator", targets: ["StoreSimulator"]),
        .library(name: "Purchases", targets: ["Purchases"]),
        .library(name: "PurchasesTest", targets: ["PurchasesTest"]),
        .library(name: "PaywallEvents", targets: ["PaywallEvents"]),
        .library(name: "PaywallEventsTest", targets: ["PaywallEventsTest"]),
        .library(name: "FeedRunner", targets: ["FeedRunner"]),
        .library(name: "OpenStoreKitCLI", targets: ["OpenStoreKitCLI"]),
        .library(name: "StoreServer", targets: ["StoreServer"]),
        .executable(name: "openstorekit", targets: ["OpenStoreKitCommand"]),
    ],
    traits: [
        .trait(
            name: "Server",
            description: "The App Store Server API and Server Notifications V2 over HTTP (needs libmicrohttpd-dev)"),
        .trait(
            name: "Postgres",
            description: "Ledger databases on a PostgreSQL server, named by a postgresql:// URL (needs libpq-dev)"),
    ],
    targets: [
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"]), .yum(["openssl-devel"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"]), .yum(["sqlite-devel"])]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"]), .yum(["libmicrohttpd-devel"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"]), .yum(["libpq-devel"])]
        ),
        .target(name: "StoreModels"),
        .target(name: "ReceiptKit", dependencies: ["StoreModels", "COpenSSL"]),
        // Without the trait `Postgres`, nothing imports CLibPQ: `LedgerDatabase(url:)` then refuses every URL.
        .target(
            name: "Ledger",
            dependencies: ["CSQLite", .target(name: "CLibPQ", condition: .when(traits: ["Postgres"]))]),
        .target(name: "StoreSimulator", dependencies: ["StoreModels", "ReceiptKit", "Ledger"]),
        .target(name: "OpenStoreKit", dependencies: ["StoreModels", "ReceiptKit", "Ledger", "StoreSimulator"]),
        // StoreKit 2 sits beside StoreKit 1, not on it: both are faces of the simulated store.
        .target(name: "OpenStoreKit2", dependencies: ["StoreSimulator", "ReceiptKit", "StoreModels"]),
        .target(
            name: "OpenStoreKitTest",
            dependencies: ["OpenStoreKit", "OpenStoreKit2", "StoreSimulator", "StoreModels", "ReceiptKit"]),
        .target(name: "StoreKit", dependencies: ["OpenStoreKit", "OpenStoreKit2"]),
        .target(name: "StoreKitTest", dependencies: ["OpenStoreKitTest", "StoreSimulator"]),
        // The app-side modules see the store through OpenStoreKit's `StoreEnvironment`, never the simulator itself.
        .target(name: "Purchases", dependencies: ["OpenStoreKit", "ReceiptKit", "StoreModels", "Ledger"]),
        .target(name: "PaywallEvents", dependencies: ["Purchases", "OpenStoreKit", "StoreModels"]),
        // Their harness pieces, over the simulated store, as OpenStoreKitTest is for StoreKit.
        .target(
            name: "PurchasesTest",
            dependencies: ["Purchases", "OpenStoreKit", "StoreSimulator", "StoreModels", "Ledger"]),
        .target(
            name: "PaywallEventsTest", dependencies: ["PaywallEvents", "Purchases", "OpenStoreKit", "StoreSimulator"]),
        .target(
            name: "FeedRunner",
            dependencies: [
                "PaywallEvents", "PaywallEventsTest", "Purchases", "OpenStoreKit", "OpenStoreKit2", "StoreSimulator",
                "ReceiptKit", "StoreModels",
            ]
        ),
        // Without the trait `Server`, StoreServer compiles to an empty module and nothing imports CMicroHTTPD. With it,
        // notifications are POSTed with OpenSSL's HTTP client (COpenSSL, which links libssl too).
        .target(
            name: "StoreServer",
            dependencies: [
                .target(name: "CMicroHTTPD", condition: .when(traits: ["Server"])),
                .target(name: "COpenSSL", condition: .when(traits: ["Server"])), "StoreSimulator", "ReceiptKit",
                "StoreModels", "Ledger",
            ]
        ),
        .target(
            name: "OpenStoreKitCLI",
            dependencies: [
                "FeedRunner", "ReceiptKit", "StoreSimulator", "StoreModels", "PurchasesTest", "Ledger",
                .target(name: "StoreServer", condition: .when(traits: ["Server"])),
            ]
        ),
        .executableTarget(name: "OpenStoreKitCommand", dependencies: ["OpenStoreKitCLI"]),
        // Shared by the test targets only: where the shared test data is, traits that skip tests without it,
        // temporary directories and bounded waits.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        .testTarget(name: "StoreModelsTests", dependencies: ["StoreModels"]),
        .testTarget(name: "ReceiptKitTests", dependencies: ["TestSupport", "ReceiptKit", "StoreModels"]),
        .testTarget(name: "LedgerTests", dependencies: ["TestSupport", "Ledger"]),
        .testTarget(
            name: "StoreSimulatorTests",
            dependencies: ["TestSupport", "StoreSimulator", "StoreModels", "ReceiptKit", "Ledger"]),
        .testTarget(
            name: "OpenStoreKitTests",
            dependencies: ["TestSupport", "OpenStoreKit", "StoreSimulator", "StoreModels", "ReceiptKit"]),
        .testTarget(
            name: "OpenStoreKit2Tests",
            dependencies: [
                "TestSupport", "OpenStoreKit2", "OpenStoreKit", "OpenStoreKitTest", "StoreSimulator", "StoreModels",
                "ReceiptKit",
            ]),
        // Written as iOS code is: it imports only StoreKit and StoreKitTest.
        .testTarget(name: "StoreKitSourceCompatibilityTests", dependencies: ["StoreKit", "StoreKitTest"]),
        // Its Products.storekit is a resource, as iOS projects keep the file: SKTestSession(configurationFileNamed:)
        // finds it in the resource bundle beside the test executable.
        .testTarget(
            name: "OpenStoreKitTestTests",
            dependencies: [
                "TestSupport", "OpenStoreKitTest", "OpenStoreKit", "OpenStoreKit2", "StoreSimulator", "StoreModels",
            ],
            resources: [.copy("Resources/Products.storekit")]),
        .testTarget(
            name: "PurchasesTests",
            dependencies: [
                "TestSupport", "Purchases", "OpenStoreKit", "StoreSimulator", "ReceiptKit", "StoreModels", "Ledger",
            ]
        ),
        .testTarget(
            name: "PaywallEventsTests",
            dependencies: [
                "PaywallEvents", "PaywallEventsTest", "Purchases", "OpenStoreKit", "StoreSimulator", "ReceiptKit",
                "StoreModels",
            ]),
        .testTarget(
            name: "FeedRunnerTests",
            dependencies: [
                "TestSupport", "FeedRunner", "OpenStoreKitTest", "ReceiptKit", "StoreSimulator", "StoreModels",
            ]
        ),
        .testTarget(
            name: "StoreServerTests",
            dependencies: [
                "TestSupport", "StoreSimulator", "StoreModels", "ReceiptKit", "Ledger",
                .target(name: "StoreServer", condition: .when(traits: ["Server"])),
                .target(name: "COpenSSL", condition: .when(traits: ["Server"])),
            ]
        ),
        // Every face of one store (StoreKit 2, the purchase module and, with the trait, the server) against the
        // engine's facts, under a seeded random workload.
        .testTarget(
            name: "AgreementTests",
            dependencies: [
                "StoreSimulator", "StoreModels", "ReceiptKit", "OpenStoreKit", "OpenStoreKit2",
                "Purchases", .target(name: "StoreServer", condition: .when(traits: ["Server"])),
            ]
        ),
        .testTarget(
            name: "OpenStoreKitCLITests",
            dependencies: [
                // OpenStoreKitCommand is not imported: it is the executable the tests start as a child process.
                "TestSupport", "OpenStoreKitCLI", "OpenStoreKitCommand", "StoreSimulator", "StoreModels", "Ledger",
                "ReceiptKit", .target(name: "StoreServer", condition: .when(traits: ["Server"])),
            ]
        ),
    ]
)

// Settings shared by every Swift target.
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
            .enableUpcomingFeature("InternalImportsByDefault"),
        ]
}
