import Foundation
import TestSupport
import Testing

@testable import StoreSimulator

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A state file that cannot be written is refused before SQLite opens it for writing: no `-wal`, `-shm` or lock file
/// appears beside it.
@Suite("Read-only state files")
struct StateFileReadOnlyTests {
    /// Makes the file at `path` unwritable: read-only permissions for an ordinary user, the immutable attribute
    /// (`chattr +i`) for root, whom permissions do not stop. Returns whether it could.
    static func makeUnwritable(_ path: String) -> Bool {
        if geteuid() != 0 { return chmod(path, 0o444) == 0 }
        return chattr("+i", path)
    }

    /// Undoes ``makeUnwritable(_:)``.
    static func makeWritable(_ path: String) {
        if geteuid() != 0 { _ = chmod(path, 0o644) } else { _ = chattr("-i", path) }
    }

    private static func chattr(_ flag: String, _ path: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Whether this machine can make a file unwritable for the running user.
    static let canMakeUnwritable: Bool = {
        guard let directory = try? TemporaryDirectory() else { return false }
        defer { directory.remove() }
        let path = directory.file("probe")
        guard FileManager.default.createFile(atPath: path, contents: Data()) else { return false }
        defer { makeWritable(path) }
        return makeUnwritable(path) && access(path, W_OK) != 0
    }()

    @Test(
        "A state file that cannot be written is refused, naming it, and nothing appears beside it",
        .enabled(if: canMakeUnwritable))
    func unwritableFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try StateFileTests.makeStateFile(at: path, purchases: 3)
        try #require(Self.makeUnwritable(path))
        defer { Self.makeWritable(path) }
        let error = try StateFileTests.expectRefused(.stateUnavailable, path, in: directory)
        #expect(error?.detail.contains("cannot be written") == true, "\(error?.detail ?? "")")
    }
}
