import Foundation
import Ledger
import StoreModels
import TestSupport
import Testing

@testable import StoreSimulator

/// State files that must be refused with a clear error, and never modified, reset or deleted.
@Suite("State files")
struct StateFileTests {
    /// Makes a closed state file with some history (large enough to span pages) and returns its history: the first
    /// half of the purchases compacted into the tables, the second half in the journal after them. With `firstFormat`,
    /// the file is written in store format 1 (a snapshot of the empty store, then the journal), as earlier releases
    /// wrote it.
    @discardableResult
    static func makeStateFile(
        at path: String, purchases: Int = 60, firstFormat: Bool = false
    ) throws -> [TransactionRecord] {
        var durability = StoreDurability()
        durability.writesFirstFormat = firstFormat
        let store = try SimulatedStore(statePath: path, durability: durability, lane: .manual)
        let (device, listener) = store.silentConnection("device")
        defer { withExtendedLifetime((device, listener)) {} }
        for index in 0..<purchases {
            if index == purchases / 2, !firstFormat { try store.compact() }
            let product = index % 3 == 0 ? "com.example.season" : "com.example.coins100"
            let transaction = device.submitNow(
                PaymentRequest(productID: product, applicationUsername: String(repeating: "u", count: 200)))
            device.processNow(transaction.id)
            if index % 2 == 0 { device.finishNow(transaction.id) }
        }
        let history = store.allTransactions()
        try store.close()
        return history
    }

    /// The files of a directory and their bytes.
    static func files(in directory: TemporaryDirectory) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            result[name] = FileManager.default.contents(atPath: directory.file(name))
        }
        return result
    }

    /// Opens `path`, expects `code` with a message naming the file, and checks that no file changed or appeared.
    @discardableResult
    static func expectRefused(
        _ code: StoreSimulatorError.Code, _ path: String, in directory: TemporaryDirectory,
        durability: StoreDurability = StoreDurability(), sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> StoreSimulatorError? {
        let before = try files(in: directory)
        let error = #expect(throws: StoreSimulatorError(code, ""), sourceLocation: sourceLocation) {
            _ = try SimulatedStore(statePath: path, durability: durability, lane: .manual)
        }
        #expect(error?.detail.contains(path) == true, "\(error?.detail ?? "")", sourceLocation: sourceLocation)
        #expect(try files(in: directory) == before, "the directory changed", sourceLocation: sourceLocation)
        return error
    }

    @Test("A truncated state file is reported as damaged, names the file and what to do, and is left as it is")
    func truncated() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeStateFile(at: path)
        let size = try #require(FileManager.default.contents(atPath: path)).count
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        let error = try Self.expectRefused(.stateCorrupt, path, in: directory)
        #expect(error?.detail.contains("truncated") == true)
        #expect(error?.detail.contains("backup") == true)
    }

    @Test("Damaged pages are found when the file is opened, before anything is written")
    func damagedPages() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeStateFile(at: path)
        // Damage the middle of the file (b-tree pages), keeping the header intact.
        let size = try #require(FileManager.default.contents(atPath: path)).count
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64(size / 2))
        try handle.write(contentsOf: Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }))
        try handle.close()
        try Self.expectRefused(.stateCorrupt, path, in: directory)
    }

    @Test("A file that is not a state file is refused untouched")
    func notAStateFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("notes.txt")
        try Data("Not a database at all.\n".utf8).write(to: URL(fileURLWithPath: path))
        let error = try Self.expectRefused(.stateUnavailable, path, in: directory)
        #expect(error?.detail.contains("not an OpenStoreKit state file") == true)
    }

    @Test("A state file whose database schema is newer than this release reads is refused untouched")
    func newerSchema() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeStateFile(at: path)
        // The schema version is PRAGMA user_version: 4 bytes, big-endian, at offset 60 of the header.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 60)
        try handle.write(contentsOf: Data([0, 0, 0, 99]))
        try handle.close()
        let error = try Self.expectRefused(.stateTooNew, path, in: directory)
        #expect(error?.detail.contains("newer release") == true)
    }

    @Test("An entry the journal cannot read is reported with its sequence number, and nothing is reset")
    func unreadableEntry() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let history = try Self.makeStateFile(at: path)
        let sequence = try LedgerDatabase(path: path).write { txn in
            try txn.appendLog([200, 1, 2, 3], to: StoreJournal.logName)
        }
        let error = try Self.expectRefused(.stateCorrupt, path, in: directory)
        #expect(error?.detail.contains("journal entry \(sequence)") == true)
        #expect(error?.detail.contains("unknown command 200") == true)
        // Remove the bad entry: everything else is still there.
        try LedgerDatabase(path: path).write { txn throws in
            #expect(try txn.removeLogEntries(in: StoreJournal.logName, through: sequence) > 0)
        }
        // Removing entries through the bad one also removed the journal's entries: the tables are left, with the
        // first half of the history (one record per purchase).
        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(reopened.allTransactions() == Array(history.prefix(30)))
        try reopened.close()
    }

    @Test("A truncated journal entry is reported with its sequence number and the offset where it ends")
    func truncatedEntry() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeStateFile(at: path, purchases: 2)
        let sequence = try LedgerDatabase(path: path).write { txn in
            try txn.appendLog([1, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 65], to: StoreJournal.logName)
        }
        let error = try Self.expectRefused(.stateCorrupt, path, in: directory)
        #expect(error?.detail.contains("journal entry \(sequence)") == true)
        #expect(error?.detail.contains("ends inside the payment's product") == true)
    }

    @Test("An unreadable snapshot of a file of format 1 is reported as damaged, and the file is not migrated")
    func unreadableSnapshot() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeStateFile(at: path, purchases: 1, firstFormat: true)
        try LedgerDatabase(path: path).write { txn in
            try txn.put(Array("{\"sequence\": 1}".utf8), forKey: StoreJournal.snapshotKey, in: StoreJournal.logName)
        }
        let error = try Self.expectRefused(.stateCorrupt, path, in: directory)
        #expect(error?.detail.contains("the store snapshot") == true)
    }

    @Test("A database of the first Ledger schema is migrated and becomes a state file")
    func migratesLedgerVersion1() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("v1.sqlite")
        try LedgerVersion1.makeDatabase(at: path)
        let store = try SimulatedStore(statePath: path, lane: .manual)
        let (device, listener) = store.silentConnection("device")
        let transaction = device.submitNow(PaymentRequest(productID: "com.example.pro"))
        device.processNow(transaction.id)
        withExtendedLifetime((device, listener)) {}
        let ledger = try #require(store.ledger)
        // The application's own data from before is still there, and the stamps of schema 2 work.
        try ledger.write { txn throws in
            #expect(try txn.value(forKey: "t1", in: "transactions") == [1, 1])
            #expect(try txn.stamp(forKey: String(transaction.id), at: store.now))
        }
        try store.close()
        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(reopened.allTransactions().map(\.id) == [transaction.id])
        try reopened.close()
    }
}
