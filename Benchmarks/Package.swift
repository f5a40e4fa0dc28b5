// swift-tools-version:6.1
import PackageDescription

// OpenStoreKit's benchmarks: a nested package, so that `swift build` and `swift test` at the root never build them.
//
//     swift run -c release --package-path Benchmarks openstorekit-bench [FILTER] [--json FILE]
//
// The server benchmarks (`server.*`) need the trait Server, which turns on the root package's (and libmicrohttpd):
//
//     swift run -c release --package-path Benchmarks --traits Server openstorekit-bench server
let package = Package(
    name: "OpenStoreKitBenchmarks",
    products: [
        .executable(name: "openstorekit-bench", targets: ["StoreBenchmarks"])
    ],
    traits: [
        .trait(name: "Server", description: "The server benchmarks (needs libmicrohttpd-dev)"),
        .trait(name: "Postgres", description: "server.database: a store on PostgreSQL (needs libpq-dev and a server)"),
    ],
    dependencies: [
        .package(
            name: "OpenStoreKit", path: "..",
            traits: [
                .defaults, .trait(name: "Server", condition: .when(traits: ["Server"])),
                .trait(name: "Postgres", condition: .when(traits: ["Postgres"])),
            ])
    ],
    targets: [
        // OpenSSL for the receipt baselines (PKCS7_verify, PKCS7_sign, EVP_DigestVerify); the root's COpenSSL is not a
        // product, so this is the same recipe under another name.
        .systemLibrary(
            name: "CBenchmarkOpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"]), .yum(["openssl-devel"])]
        ),
        // Raw SQLite for the baselines of ledger.durable: the root's CSQLite module map and shim under another name
        // (target names must be unique across the package graph).
        .systemLibrary(
            name: "CSQLiteRaw",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"]), .yum(["sqlite-devel"])]
        ),
        // libmicrohttpd for the server benchmarks' loopback server (StoreServer's HTTP layer is internal to it); only
        // imported with the trait Server.
        .systemLibrary(
            name: "CBenchmarkMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"]), .yum(["libmicrohttpd-devel"])]
        ),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                .product(name: "OpenStoreKit", package: "OpenStoreKit"),
                .product(name: "OpenStoreKit2", package: "OpenStoreKit"),
                .product(name: "StoreSimulator", package: "OpenStoreKit"),
                .product(name: "StoreModels", package: "OpenStoreKit"),
                .product(name: "ReceiptKit", package: "OpenStoreKit"),
                .product(name: "FeedRunner", package: "OpenStoreKit"),
                "CBenchmarkOpenSSL",
                .product(name: "Ledger", package: "OpenStoreKit"),
                "CSQLiteRaw",
                .product(name: "StoreServer", package: "OpenStoreKit", condition: .when(traits: ["Server"])),
                .target(name: "CBenchmarkMicroHTTPD", condition: .when(traits: ["Server"])),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
