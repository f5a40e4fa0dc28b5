import Foundation

/// Copies a state file and its write-ahead log as they are on disk right now: exactly what a process killed with
/// `kill -9` at this instant leaves behind (the file system holds what SQLite wrote, nothing of its memory).
func copyAsIfKilled(_ path: String, to destination: String) throws {
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
        try FileManager.default.copyItem(atPath: path + suffix, toPath: destination + suffix)
    }
}
