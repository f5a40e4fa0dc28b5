import Foundation
import Ledger
import StoreModels
import TestSupport
import Testing

@testable import StoreSimulator

/// A state path that is a symbolic link is the file it leads to (docs/decisions.md): opened, locked and kept there,
/// its `-wal` and `-shm` beside it. A link that leads nowhere, and a `-wal` or `-shm` that is a link, are refused,
/// and nothing appears anywhere.
@Suite("State file links")
struct StateFileLinkTests {
    @Test("A state path that is a link to a state file opens that file, locked and kept beside it")
    func linkToStateFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let real = directory.file("real.sqlite")
        let link = directory.file("link.sqlite")
        let history = try StateFileTests.makeStateFile(at: real, purchases: 6)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.sqlite")
        let store = try SimulatedStore(statePath: link, lane: .manual)
        #expect(store.allTransactions() == history)
        #expect(store.statePath == real)
        #expect(FileManager.default.fileExists(atPath: real + ".lock"))
        #expect(!FileManager.default.fileExists(atPath: link + ".lock"))
        // The same file through its own path is the same file: refused while the store has it.
        #expect(throws: StoreSimulatorError(.stateUnavailable, "")) {
            _ = try SimulatedStore(statePath: real, lane: .manual)
        }
        try store.buyProduct("com.example.pro")
        #expect(FileManager.default.fileExists(atPath: real + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: link + "-wal"))
        try store.close()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names.allSatisfy { !$0.hasPrefix("link.sqlite-") && $0 != "link.sqlite.lock" }, "\(names)")
        let reopened = try SimulatedStore(statePath: real, lane: .manual)
        #expect(reopened.allTransactions().count == history.count + 1)
        try reopened.close()
    }

    @Test("A state path that is a link to nothing is refused, and its target is not created")
    func danglingLink() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let link = directory.file("state.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.file("gone.sqlite"))
        let before = try StateFileTests.files(in: directory)
        let error = #expect(throws: StoreSimulatorError(.stateUnavailable, "")) {
            _ = try SimulatedStore(statePath: link, lane: .manual)
        }
        #expect(error?.detail.contains("symbolic link") == true, "\(error?.detail ?? "")")
        #expect(error?.detail.contains(link) == true, "\(error?.detail ?? "")")
        #expect(try StateFileTests.files(in: directory) == before, "nothing was created")
    }

    @Test("A -wal or -shm that is a link is refused, and nothing appears beside the file", arguments: ["-wal", "-shm"])
    func linkedCompanion(suffix: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try StateFileTests.makeStateFile(at: path, purchases: 3)
        try FileManager.default.createSymbolicLink(
            atPath: path + suffix, withDestinationPath: directory.file("elsewhere"))
        let error = try StateFileTests.expectRefused(.stateUnavailable, path, in: directory)
        #expect(error?.detail.contains("\(path)\(suffix)' is a symbolic link") == true, "\(error?.detail ?? "")")
        #expect(!FileManager.default.fileExists(atPath: directory.file("elsewhere")))
    }
}
