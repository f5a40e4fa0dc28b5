import Foundation

/// A fresh directory under the system's temporary directory, removed by ``remove()`` (call it in a `defer`).
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/store-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    /// A path inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Copies a state file and its write-ahead log as they are on disk right now: exactly what a process killed with
/// `kill -9` at this instant leaves behind (the file system holds what SQLite wrote, nothing of its memory).
func copyAsIfKilled(_ path: String, to destination: String) throws {
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
        try FileManager.default.copyItem(atPath: path + suffix, toPath: destination + suffix)
    }
}
