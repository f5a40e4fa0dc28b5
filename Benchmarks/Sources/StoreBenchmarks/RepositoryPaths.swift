import Foundation

/// Files the benchmarks read at run time, found from this source file's path: the repository root is three folders
/// above `Benchmarks/Sources/StoreBenchmarks/`, and the shared test vectors sit beside the repository.
enum RepositoryPaths {
    /// The repository root.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // StoreBenchmarks
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // Benchmarks
        .deletingLastPathComponent()

    /// `Receipts/pki/`: the test PKI that the simulated store signs receipts with.
    static var testPKI: URL { root.appendingPathComponent("Receipts/pki") }

    /// `../shared/vectors/receipts/` relative to the repository root: real App Store receipts.
    static var receiptVectors: URL {
        root.appendingPathComponent("../shared/vectors/receipts").standardizedFileURL
    }
}
