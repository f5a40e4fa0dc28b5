public import Foundation

/// Files that ship in the repository, and so are always there for tests.
public enum RepositoryFiles {
    /// The package root, found from this file's path (`Tests/TestSupport/` below it).
    public static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `Examples/`: the example feeds and `.storekit` files.
    public static var examples: URL { root.appendingPathComponent("Examples", isDirectory: true) }

    /// `Receipts/pki/`: the test PKI.
    public static var pki: URL { root.appendingPathComponent("Receipts/pki", isDirectory: true) }

    /// A file of `Examples/` by name.
    public static func example(_ name: String) -> URL { examples.appendingPathComponent(name) }
}
