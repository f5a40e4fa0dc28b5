public import Foundation

/// A fresh directory under the system's temporary directory, removed by ``remove()`` (call it in a `defer`).
public struct TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Creates the directory, named after `prefix` and a fresh UUID.
    public init(prefix: String = "openstorekit-tests") throws {
        path = FileManager.default.temporaryDirectory.path + "/\(prefix)-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    /// The directory as a file URL.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// A path inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Removes the directory and everything in it.
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
