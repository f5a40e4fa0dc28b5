import Foundation
import Ledger
import StoreModels
import TestSupport
import Testing

@testable import StoreSimulator

/// The state file's format 2 (the state in tables, docs/durable-state.md): files of format 1 are migrated in place
/// with a backup, opening reads the tables instead of replaying the history, and a damaged table is refused naming
/// it.
@Suite("State file format")
struct StateFileFormatTests {
    /// Durability that writes store format 1, as earlier releases did (a snapshot, then the journal).
    static func firstFormat(compactEvery: Int? = nil) -> StoreDurability {
        var durability = StoreDurability(compactEvery: compactEvery)
        durability.writesFirstFormat = true
        return durability
    }

    /// The store's format version and the number of journal entries of the file at `path`.
    static func format(of path: String) throws -> (format: Int64?, entries: Int, snapshot: Bool) {
        let database = try LedgerDatabase(path: path)
        return try database.read { txn in
            (
                try txn.metaInteger(forKey: StoreJournal.formatKey), try txn.logCount(in: StoreJournal.logName),
                try txn.containsValue(forKey: StoreJournal.snapshotKey, in: StoreJournal.logName)
            )
        }
    }

    @Test(
        "A file of format 1 is migrated in place, keeps its state, and leaves a backup that opens as it was",
        arguments: [nil, 60] as [Int?])
    func migratesFirstFormat(compactEvery: Int?) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let memory = SimulatedStore(lane: .manual)
        var legacy = try SimulatedStore(
            statePath: path, durability: Self.firstFormat(compactEvery: compactEvery), lane: .manual)
        var workload = StoreWorkload(seed: 11)
        workload.connect(memory)
        workload.connect(legacy)
        for _ in 0..<200 { workload.step([memory, legacy]) }
        try legacy.close()
        #expect(try Self.format(of: path).format == 1)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        // Opened by this release: migrated, the same state.
        let migrated = try SimulatedStore(statePath: path, lane: .manual)
        try expectSameState(memory, migrated)
        try migrated.close()
        let after = try Self.format(of: path)
        #expect(after.format == StoreJournal.currentFormat)
        #expect(after.entries == 0, "the journal was compacted into the tables")
        #expect(!after.snapshot, "the snapshot is gone")
        let backup = path + ".v1.bak"
        #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == before, "the backup is the file as it was")

        // It goes on from the tables, and reopens again with the same state.
        var reopened = try SimulatedStore(statePath: path, lane: .manual)
        workload.connect(memory)
        workload.connect(reopened)
        for _ in 0..<100 { workload.step([memory, reopened]) }
        try reopened.close()
        reopened = try SimulatedStore(statePath: path, lane: .manual)
        try expectSameState(memory, reopened)
        try reopened.close()

        // The backup still opens as a file of format 1, with the state from before the migration.
        legacy = try SimulatedStore(statePath: backup, durability: Self.firstFormat(), lane: .manual)
        #expect(legacy.allTransactions().count <= memory.allTransactions().count)
        try legacy.close()
        #expect(try Self.format(of: backup).format == 1)
    }

    @Test("A file of format 1 left by a killed writer (with its -wal) is backed up with its -wal and migrated")
    func migratesWithWriteAheadLog() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let copy = directory.file("killed.sqlite")
        let store = try SimulatedStore(statePath: path, durability: Self.firstFormat(), lane: .manual)
        var workload = StoreWorkload(seed: 5)
        workload.connect(store)
        for _ in 0..<120 { workload.step([store]) }
        let expected = try fingerprint(store)
        // Copied while open: what a kill leaves (the latest changes are in the -wal).
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix) }
        try store.close()
        #expect(FileManager.default.fileExists(atPath: copy + "-wal"))
        let migrated = try SimulatedStore(statePath: copy, lane: .manual)
        #expect(try fingerprint(migrated) == expected)
        try migrated.close()
        #expect(FileManager.default.fileExists(atPath: copy + ".v1.bak-wal"))
        let backup = try SimulatedStore(statePath: copy + ".v1.bak", durability: Self.firstFormat(), lane: .manual)
        #expect(try fingerprint(backup) == expected)
        try backup.close()
    }

    @Test("Opening reads the tables: after a compaction the journal is empty and nothing is replayed")
    func opensFromTables() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let memory = SimulatedStore(lane: .manual)
        let durable = try SimulatedStore(statePath: path, durability: StoreDurability(compactEvery: nil), lane: .manual)
        var workload = StoreWorkload(seed: 21)
        workload.connect(memory)
        workload.connect(durable)
        for _ in 0..<300 { workload.step([memory, durable]) }
        try durable.compact()
        let ledger = try #require(durable.ledger)
        let rows = try ledger.read { txn in
            (
                records: try txn.count(in: StoreTables.Table.records.rawValue),
                entries: try txn.logCount(in: StoreJournal.logName)
            )
        }
        // One row per record: the history is not one value rewritten whole.
        #expect(rows.records == memory.allTransactions().count)
        #expect(rows.entries == 0)
        try durable.close()
        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        try expectSameState(memory, reopened)
        try reopened.close()
    }

    /// A compacted state file with a row in every table: records, devices, a subscription, an account's settings,
    /// a used nonce's table left empty, and the values.
    static func makeFullFile(at path: String) throws {
        let store = try SimulatedStore(statePath: path, durability: StoreDurability(compactEvery: nil), lane: .manual)
        let (device, listener) = store.silentConnection("device")
        defer { withExtendedLifetime((device, listener)) {} }
        for product in ["com.example.coins100", "com.example.premium.monthly", "com.example.pro"] {
            let transaction = device.submitNow(PaymentRequest(productID: product))
            device.processNow(transaction.id)
        }
        store.updateAccountSettings("alice") { $0.askToBuyEnabled = true }
        store.setReceiptExpired(true, deviceID: "device")
        let coins = try #require(store.allTransactions().first { $0.productID == "com.example.coins100" })
        try store.setConsumptionInformation(
            ConsumptionInformation(
                sampleContentProvided: false, deliveryStatus: .delivered, consumptionPercentage: 100),
            forTransaction: coins.id)
        try store.extendRenewalDates(
            productID: "com.example.premium.monthly", by: 86_400, requestIdentifier: "full")
        try store.compact()
        try store.close()
    }

    @Test(
        "A table with a damaged row is refused naming the file and the table, and nothing changes",
        arguments: [
            StoreTables.Table.values, .records, .devices, .subscriptions, .accounts, .consumption, .massExtensions,
        ])
    func damagedTable(table: StoreTables.Table) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeFullFile(at: path)
        try LedgerDatabase(path: path).write { txn in
            let first = try #require(try txn.all(in: table.rawValue).first)
            try txn.put([0x7B, 0x01], forKey: first.key, in: table.rawValue)
        }
        // A record's row is checked when its account is first read (StoreRecordsOnDemandTests), or on opening with
        // the whole-file check.
        let durability = table == .records ? StoreDurability(ledger: LedgerOptions()) : StoreDurability()
        let error = try StateFileTests.expectRefused(.stateCorrupt, path, in: directory, durability: durability)
        #expect(error?.detail.contains("table \(table.rawValue)") == true, "\(error?.detail ?? "")")
    }

    @Test("A missing counter is refused naming it")
    func missingCounter() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeFullFile(at: path)
        let removed = try LedgerDatabase(path: path).write { txn in
            try txn.removeMeta(forKey: StoreTables.Meta.nextTransactionID)
        }
        #expect(removed)
        let error = try StateFileTests.expectRefused(.stateCorrupt, path, in: directory)
        #expect(error?.detail.contains(StoreTables.Meta.nextTransactionID) == true, "\(error?.detail ?? "")")
    }

    @Test("A change of the history retention is in the state file: the reopened store keeps following it")
    func retentionIsKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let store = try SimulatedStore(statePath: path, lane: .manual)
        store.historyRetention = .receiptOnly
        let (device, listener) = store.silentConnection("device")
        defer { withExtendedLifetime((device, listener)) {} }
        let transaction = device.submitNow(PaymentRequest(productID: "com.example.coins100"))
        device.processNow(transaction.id)
        device.finishNow(transaction.id)
        #expect(store.allTransactions().isEmpty, "a finished consumable is dropped")
        try store.close()
        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(reopened.historyRetention == .receiptOnly)
        #expect(reopened.allTransactions().isEmpty)
        try reopened.compact()
        try reopened.close()
        let compacted = try SimulatedStore(statePath: path, lane: .manual)
        #expect(compacted.historyRetention == .receiptOnly)
        try compacted.close()
    }
}
