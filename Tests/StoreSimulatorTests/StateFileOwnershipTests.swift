import Foundation
import StoreModels
import TestSupport
import Testing

@testable import StoreSimulator

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One store owns a state file at a time: `<file>.lock` beside it, locked with `flock` and holding the owner's pid.
@Suite("State file ownership")
struct StateFileOwnershipTests {
    @Test("While a store has the file open its lock file holds the process id; close() removes it")
    func lockFileWhileOpen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let store = try SimulatedStore(statePath: path, lane: .manual)
        let text = try String(contentsOfFile: path + ".lock", encoding: .utf8)
        #expect(text == "\(getpid())\n")
        try store.close()
        #expect(!FileManager.default.fileExists(atPath: path + ".lock"))
        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        try reopened.close()
    }

    @Test("A second store on the same file in the same process is refused at once, naming the file and the process")
    func secondStoreInProcess() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let store = try SimulatedStore(statePath: path, lane: .manual)
        let (device, listener) = store.silentConnection("device")
        device.submit(PaymentRequest(productID: "com.example.pro"))
        store.runUntilIdle()
        withExtendedLifetime((device, listener)) {}
        let error = #expect(throws: StoreSimulatorError(.stateUnavailable, "")) {
            _ = try SimulatedStore(statePath: path, lane: .manual)
        }
        #expect(error?.detail.contains(path) == true, "\(error?.detail ?? "")")
        #expect(error?.detail.contains("pid \(getpid())") == true, "\(error?.detail ?? "")")
        #expect(error?.detail.contains("close()") == true, "\(error?.detail ?? "")")
        #expect(store.allTransactions().count == 1)
        try store.close()
    }

    @Test("The lock itself refuses a second owner in the same process: flock locks belong to each open of the file")
    func lockIsExclusiveWithinAProcess() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        var first: StateFileLock? = try StateFileLock(statePath: path)
        let error = #expect(throws: StoreSimulatorError(.stateUnavailable, "")) {
            _ = try StateFileLock(statePath: path)
        }
        #expect(error?.detail.contains("pid \(getpid())") == true, "\(error?.detail ?? "")")
        withExtendedLifetime(first) {}
        first = nil
        #expect(!FileManager.default.fileExists(atPath: path + ".lock"))
        _ = try StateFileLock(statePath: path)  // free again
    }

    @Test("A lock held by another process refuses the store before it reads or writes the file, naming that process")
    func heldByAnotherProcess() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try StateFileTests.makeStateFile(at: path, purchases: 3)
        // What another process owning the file leaves: the lock file with its pid, locked.
        let descriptor = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let record = Array("424242\n".utf8)
        _ = record.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let before = try StateFileTests.files(in: directory)
        let error = #expect(throws: StoreSimulatorError(.stateUnavailable, "")) {
            _ = try SimulatedStore(statePath: path, lane: .manual)
        }
        #expect(error?.detail.contains(path) == true, "\(error?.detail ?? "")")
        #expect(error?.detail.contains("process 424242") == true, "\(error?.detail ?? "")")
        #expect(error?.detail.contains("another state file") == true, "\(error?.detail ?? "")")
        #expect(try StateFileTests.files(in: directory) == before, "nothing was written")
    }

    @Test("A lock file left by a dead process does not block: the next store takes it over")
    func staleLockFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try StateFileTests.makeStateFile(at: path, purchases: 3)
        // A process killed with SIGKILL leaves its lock file, unlocked (the kernel dropped the lock).
        try Data("999999999\n".utf8).write(to: URL(fileURLWithPath: path + ".lock"))
        let store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(store.allTransactions().count == 3)
        #expect(try String(contentsOfFile: path + ".lock", encoding: .utf8) == "\(getpid())\n")
        try store.close()
        #expect(!FileManager.default.fileExists(atPath: path + ".lock"))
    }

    @Test("A lock file that is a symbolic link is refused: its target is neither truncated nor written, nor created")
    func lockFileLink() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try StateFileTests.makeStateFile(at: path, purchases: 3)
        let victim = directory.file("victim.txt")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        for target in [victim, directory.file("missing.txt")] {
            try FileManager.default.createSymbolicLink(atPath: path + ".lock", withDestinationPath: target)
            let before = try StateFileTests.files(in: directory)
            let error = #expect(throws: StoreSimulatorError(.stateUnavailable, "")) {
                _ = try SimulatedStore(statePath: path, lane: .manual)
            }
            #expect(error?.detail.contains("symbolic link") == true, "\(error?.detail ?? "")")
            #expect(error?.detail.contains("Remove \(path).lock") == true, "\(error?.detail ?? "")")
            #expect(try StateFileTests.files(in: directory) == before, "nothing was written or created")
            #expect(!FileManager.default.fileExists(atPath: directory.file("missing.txt")))
            try FileManager.default.removeItem(atPath: path + ".lock")
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    }

    @Test("A lock file that is a hard link to another file is refused, and that file is left as it was")
    func lockFileHardLink() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try StateFileTests.makeStateFile(at: path, purchases: 3)
        let victim = directory.file("victim.txt")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.linkItem(atPath: victim, toPath: path + ".lock")
        let before = try StateFileTests.files(in: directory)
        let error = #expect(throws: StoreSimulatorError(.stateUnavailable, "")) {
            _ = try SimulatedStore(statePath: path, lane: .manual)
        }
        #expect(error?.detail.contains("hard link") == true, "\(error?.detail ?? "")")
        #expect(try StateFileTests.files(in: directory) == before, "nothing was written")
    }

    @Test("A refused file leaves no lock file behind")
    func refusedLeavesNoLockFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("notes.txt")
        try Data("Not a database.\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreSimulatorError(.stateUnavailable, "")) {
            _ = try SimulatedStore(statePath: path, lane: .manual)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.txt"])
        // And the file can be owned at once by the next attempt (nothing held on to the lock).
        _ = try StateFileLock(statePath: path)
    }
}
