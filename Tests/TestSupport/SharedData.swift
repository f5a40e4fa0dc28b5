public import Foundation

/// The shared test data that lives beside the repository, not in it: real App Store receipts, JWS samples and
/// `.storekit` files written by Xcode (`vectors/` and `storekit-samples/`).
///
/// The folder is the one the `OPENSTOREKIT_VECTORS` environment variable names, or else `shared` beside the package
/// root (`../shared`). Tests that read it carry ``Testing/Trait/requiresSharedData``, so a plain clone skips them
/// with a reason instead of failing.
public enum SharedData {
    /// The environment variable that names the shared folder.
    public static let environmentVariable = "OPENSTOREKIT_VECTORS"

    /// The words every skip reason starts with; `.ci/run` looks for them in the test output.
    public static let skipMarker = "needs the shared test data"

    /// The folder searched: `$OPENSTOREKIT_VECTORS`, or `../shared` beside the package root.
    public static let folder: URL = {
        if let named = ProcessInfo.processInfo.environment[environmentVariable], !named.isEmpty {
            return URL(fileURLWithPath: named, isDirectory: true).standardizedFileURL
        }
        return RepositoryFiles.root.deletingLastPathComponent().appendingPathComponent("shared", isDirectory: true)
            .standardizedFileURL
    }()

    /// Whether the environment variable names the folder (rather than the default beside the package).
    public static var isNamedByEnvironment: Bool {
        !(ProcessInfo.processInfo.environment[environmentVariable] ?? "").isEmpty
    }

    /// Whether the folder holds the receipt and JWS vectors and the `.storekit` samples.
    public static let isAvailable: Bool = {
        var isDirectory: ObjCBool = false
        return ["vectors/receipts", "vectors/jws", "storekit-samples"].allSatisfy { sub in
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(sub).path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }()

    /// Why a test that needs the folder does not run: the path searched and how to provide it.
    public static var skipReason: String {
        "\(skipMarker): no vectors/receipts, vectors/jws and storekit-samples folders in \(folder.path); "
            + "put the shared folder beside the checkout as ../shared, "
            + "or set \(environmentVariable) to the folder that holds them"
    }

    /// `vectors/receipts`: App Store and Xcode receipts, Apple's certificates and verifyReceipt samples.
    public static var receipts: URL { folder.appendingPathComponent("vectors/receipts", isDirectory: true) }

    /// `vectors/jws`: signed transactions and renewal information.
    public static var jws: URL { folder.appendingPathComponent("vectors/jws", isDirectory: true) }

    /// `storekit-samples`: `.storekit` files written by Xcode.
    public static var storeKitSamples: URL { folder.appendingPathComponent("storekit-samples", isDirectory: true) }

    /// A file of `vectors/receipts` by name.
    public static func receipt(_ name: String) -> URL { receipts.appendingPathComponent(name) }

    /// A `.storekit` sample by name.
    public static func storeKitSample(_ name: String) -> URL { storeKitSamples.appendingPathComponent(name) }
}
