import Foundation

/// The bytes of a file (`nil` if it does not exist).
func contents(of path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}

/// Copies a database's file and write-ahead log as they are on disk right now, to `destination` (and
/// `destination-wal`). Taken while the database is still open, this is exactly what a process killed with
/// `kill -9` at this instant leaves behind: the file system holds what SQLite wrote, and nothing of its memory.
func snapshotAsIfKilled(_ path: String, to destination: String) throws {
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
        try FileManager.default.copyItem(atPath: path + suffix, toPath: destination + suffix)
    }
}

extension String {
    var bytes: [UInt8] { Array(utf8) }
}
