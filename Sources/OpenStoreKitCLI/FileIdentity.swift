import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What makes two paths the same file: the device and inode of an existing file (after following symbolic links), or
/// the absolute path with its directory resolved for a file that does not exist yet.
struct FileIdentity: Equatable {
    private enum Key: Equatable {
        case inode(device: UInt64, inode: UInt64)
        case path(String)
        case standardOutput
    }

    private let key: Key

    /// The identity of standard output, for options given `-`.
    static let standardOutput = FileIdentity(key: .standardOutput)

    private init(key: Key) { self.key = key }

    /// The identity of the file at `path`, following symbolic links.
    init(path: String) {
        var info = stat()
        if stat(path, &info) == 0 {
            key = .inode(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        } else {
            key = .path(Self.absolute(path))
        }
    }

    /// `path` made absolute, its directory resolved through symbolic links when it exists.
    static func absolute(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        guard let resolved = realpath(directory, nil) else { return url.standardizedFileURL.path }
        defer { free(resolved) }
        let base = String(cString: resolved)
        return (base.hasSuffix("/") ? base : base + "/") + url.lastPathComponent
    }
}
