import Foundation
import Ledger
import ReceiptKit
import StoreModels
import Synchronization
import TestSupport
import Testing

@testable import StoreSimulator

/// A durable store opened from its tables reads no record on opening; each account's records are read from the file
/// when first needed, and every answer is the one the store gave before it closed.
@Suite("Records read on demand")
struct StoreRecordsOnDemandTests {
    static let accounts = ["default", "alice", "bob", "carol"]
    static let devices = [("d1", "default"), ("d2", "alice"), ("d3", "bob"), ("d4", "carol")]

    /// Makes a compacted, closed state file: each account buys a consumable (finished), a subscription and a
    /// non-consumable; alice and bob are a family; a month passes (renewals). Returns the records' identifiers.
    @discardableResult
    static func makeFile(at path: String) throws -> [UInt64] {
        let store = try SimulatedStore(statePath: path, durability: StoreDurability(compactEvery: nil), lane: .manual)
        var kept: [(DeviceConnection, SilentListener)] = []
        try store.joinFamily("family", accounts: ["alice", "bob"])
        for (deviceID, account) in devices {
            let (device, listener) = store.silentConnection(deviceID, account: account)
            kept.append((device, listener))
            for product in ["com.example.coins100", "com.example.premium.monthly", "com.example.pro"] {
                let transaction = device.submitNow(PaymentRequest(productID: product))
                device.processNow(transaction.id)
                device.finishNow(transaction.id)
            }
        }
        _ = try store.advance(by: 40 * 86_400)
        store.runUntilIdle()
        withExtendedLifetime(kept) {}
        let ids = store.allTransactions().map(\.id)
        try store.compact()
        try store.close()
        return ids
    }

    /// Everything the store answers about its accounts, devices and transactions.
    struct Answers: Equatable {
        var histories: [[TransactionRecord]] = []
        var entitlements: [[TransactionRecord]] = []
        var statuses: [[StoreSubscriptionStatus]] = []
        var serverHistories: [[TransactionRecord]] = []
        var receipts: [AppReceipt] = []
        var receiptBytes: [[UInt8]] = []
        var lookups: [TransactionRecord?] = []
        var customers: [[TransactionRecord]] = []
        var customerStatuses: [[StoreSubscriptionStatus]] = []

        init(_ store: SimulatedStore, ids: [UInt64]) throws {
            for account in StoreRecordsOnDemandTests.accounts {
                histories.append(store.transactions(of: account))
                entitlements.append(store.currentEntitlements(of: account))
                statuses.append(store.subscriptionStatuses(of: account))
                serverHistories.append(store.transactionHistory(of: account, view: .serverVersion2))
            }
            for (deviceID, _) in StoreRecordsOnDemandTests.devices {
                receipts.append(store.appReceiptModel(deviceID: deviceID))
                receiptBytes.append(try store.appReceipt(deviceID: deviceID))
            }
            for id in ids {
                lookups.append(store.transaction(id))
                let customer = store.customer(ofTransaction: id, including: [.history, .subscriptionStatuses])
                customers.append(customer?.records ?? [])
                customerStatuses.append(customer?.subscriptionStatuses ?? [])
            }
        }
    }

    /// The accounts whose records a store holds in memory.
    static func loaded(_ store: SimulatedStore) -> [String] {
        store.state.withLock { state in accounts.filter { state.records.isLoaded($0) } }
    }

    @Test("A reopened store reads no record until asked, then answers every question exactly as before")
    func answersAsBefore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let ids = try Self.makeFile(at: path)
        let before = try SimulatedStore(
            statePath: path, durability: StoreDurability(ledger: LedgerOptions()), lane: .manual)
        #expect(Self.loaded(before) == Self.accounts, "the whole-file check reads every record on opening")
        let expected = try Answers(before, ids: ids)
        try before.close()

        let store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(store.state.withLock { $0.records.count } == 0, "opening read no record")
        #expect(Self.loaded(store).isEmpty)
        #expect(try Answers(store, ids: ids) == expected)
        #expect(Self.loaded(store) == Self.accounts, "each account asked about is loaded")
        #expect(store.allTransactions().map(\.id) == ids)
        #expect(store.durabilityError == nil)
        try store.close()
    }

    @Test("An account touched only by a transaction's identifier is read for it, and its change is kept")
    func touchedByIdentifier() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeFile(at: path)
        let reader = try SimulatedStore(statePath: path, lane: .manual)
        let carols = reader.transactions(of: "carol")
        try reader.close()
        let pro = try #require(carols.first { $0.productID == "com.example.pro" })

        let store = try SimulatedStore(statePath: path, durability: StoreDurability(compactEvery: nil), lane: .manual)
        // A lookup by identifier reads that one row.
        #expect(store.transaction(pro.id) == pro)
        #expect(Self.loaded(store).isEmpty)
        // A change by identifier reads the account first.
        let refunded = try store.refund(pro.id)
        #expect(refunded.cancellationDate != nil)
        #expect(Self.loaded(store) == ["carol"])
        var expected = carols
        expected[expected.firstIndex { $0.id == pro.id }!] = refunded
        #expect(store.transactions(of: "carol") == expected)
        try store.compact()
        try store.close()

        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(reopened.transactions(of: "carol") == expected)
        #expect(reopened.transaction(pro.id)?.cancellationDate != nil)
        try reopened.close()
    }

    @Test("Records asked for inside a transaction of the store's own database are read, and nothing stops")
    func readInsideTransaction() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeFile(at: path)
        let reader = try SimulatedStore(statePath: path, lane: .manual)
        let expected = reader.transactions(of: "bob")
        try reader.close()
        let store = try SimulatedStore(statePath: path, lane: .manual)
        let database = try #require(store.ledger)
        let inside = try database.write { txn in
            try txn.put([1], forKey: "granted", in: "app.grants")
            return store.transactions(of: "bob")
        }
        #expect(!expected.isEmpty)
        #expect(inside == expected)
        #expect(store.durabilityError == nil)
        try store.close()
    }

    @Test("A family is read as one: asking about one member reads every member's records")
    func familyLoadedAsOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeFile(at: path)
        let whole = try SimulatedStore(
            statePath: path, durability: StoreDurability(ledger: LedgerOptions()), lane: .manual)
        let expected = (whole.currentEntitlements(of: "alice"), whole.currentEntitlements(of: "bob"))
        try whole.close()
        let store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(store.currentEntitlements(of: "alice") == expected.0)
        #expect(Self.loaded(store) == ["alice", "bob"])
        #expect(store.currentEntitlements(of: "bob") == expected.1)
        try store.close()
    }

    @Test("A damaged record row met when its account is read gives stateCorrupt naming it, and the file is kept")
    func damagedRowOnLoad() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeFile(at: path)
        let reader = try SimulatedStore(statePath: path, lane: .manual)
        let bobs = reader.transactions(of: "bob")
        try reader.close()
        let key = RecordRow.key(bobs[0].id)
        try LedgerDatabase(path: path).write { txn in
            try txn.put([0x7B, 0x01], forKey: key, in: StoreTables.Table.records.rawValue)
        }
        let before = try StateFileTests.files(in: directory)

        let store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(store.transactions(of: "alice").count > 0, "another account reads as before")
        _ = store.transactions(of: "bob")
        let error = #expect(throws: StoreSimulatorError(.stateCorrupt, "")) { try store.flush() }
        for words in [path, "table \(StoreTables.Table.records.rawValue)", "row \(key)"] {
            #expect(error?.detail.contains(words) == true, "\(words): \(error?.detail ?? "")")
        }
        #expect(store.durabilityError?.code == .stateCorrupt)
        // Nothing more is recorded: a purchase now stays in memory.
        let (device, listener) = store.silentConnection("d3", account: "bob")
        device.processNow(device.submitNow(PaymentRequest(productID: "com.example.coins100")).id)
        withExtendedLifetime(listener) {}
        #expect(throws: StoreSimulatorError(.stateCorrupt, "")) { try store.close() }
        #expect(try StateFileTests.files(in: directory) == before, "the file was not changed")
        // The whole-file check finds it on opening.
        _ = try StateFileTests.expectRefused(
            .stateCorrupt, path, in: directory, durability: StoreDurability(ledger: LedgerOptions()))
    }

    @Test("The whole-file check on demand passes a sound file and names a damaged row without changing the file")
    func wholeFileCheck() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let ids = try Self.makeFile(at: path)
        let sound = try SimulatedStore(statePath: path, lane: .manual)
        try sound.checkStateFile()
        #expect(Self.loaded(sound).isEmpty, "the check loads nothing")
        try sound.close()
        let key = RecordRow.key(ids[ids.count / 2])
        try LedgerDatabase(path: path).write { txn in
            try txn.put([0x00], forKey: key, in: StoreTables.Table.records.rawValue)
        }
        let before = try StateFileTests.files(in: directory)
        let store = try SimulatedStore(statePath: path, lane: .manual)
        let error = #expect(throws: StoreSimulatorError(.stateCorrupt, "")) { try store.checkStateFile() }
        for words in [path, "table \(StoreTables.Table.records.rawValue)", "row \(key)"] {
            #expect(error?.detail.contains(words) == true, "\(words): \(error?.detail ?? "")")
        }
        try store.close()
        #expect(try StateFileTests.files(in: directory) == before, "the file was not changed")
    }

    @Test("A file written before the index of each account's records opens whole once and gets the index")
    func fileWithoutIndex() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let ids = try Self.makeFile(at: path)
        let first = try SimulatedStore(statePath: path, lane: .manual)
        let expected = try Answers(first, ids: ids)
        try first.close()
        try LedgerDatabase(path: path).write { txn in
            _ = try txn.removeAll(in: AccountRecordIndex.collection)
            _ = try txn.removeMeta(forKey: AccountRecordIndex.completeKey)
        }
        let old = try SimulatedStore(statePath: path, lane: .manual)
        #expect(Self.loaded(old) == Self.accounts, "read whole")
        #expect(try Answers(old, ids: ids) == expected)
        try old.close()
        let indexed = try LedgerDatabase(path: path).read { txn in
            (
                try txn.metaInteger(forKey: AccountRecordIndex.completeKey),
                try txn.count(in: AccountRecordIndex.collection)
            )
        }
        #expect(indexed.0 == 1)
        #expect(indexed.1 == Self.accounts.count, "a row per account (fewer than 512 records each)")

        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(Self.loaded(reopened).isEmpty, "read on demand")
        #expect(try Answers(reopened, ids: ids) == expected)
        try reopened.close()
    }

    @Test("A compaction writes the rows that changed, not those of the accounts it read")
    func compactionSkipsLoadedRows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.makeFile(at: path)
        let store = try SimulatedStore(statePath: path, durability: StoreDurability(compactEvery: nil), lane: .manual)
        for account in Self.accounts { _ = store.transactions(of: account) }
        let (device, listener) = store.silentConnection("d2", account: "alice")
        let bought = device.submitNow(PaymentRequest(productID: "com.example.coins100"))
        device.processNow(bought.id)
        withExtendedLifetime(listener) {}
        let (changed, index) = store.state.withLock { state in
            (state.records.takeChanges(), state.records.takeIndexChanges().map(\.account))
        }
        #expect(changed.changed == [bought.id], "only the new record is noted as changed")
        #expect(index == ["alice"])
        try store.close()
    }

    @Test("Journal entries after the tables replay on every account, loaded or not, exactly as before")
    func replayAfterTables() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let ids = try Self.makeFile(at: path)
        let reader = try SimulatedStore(statePath: path, lane: .manual)
        let carolsPro = try #require(reader.transactions(of: "carol").first { $0.productID == "com.example.pro" })
        try reader.close()
        let store = try SimulatedStore(statePath: path, durability: StoreDurability(compactEvery: nil), lane: .manual)
        // Changes to accounts never read before: by identifier, by a device, by time.
        try store.refund(carolsPro.id)
        let (device, listener) = store.silentConnection("d3", account: "bob")
        device.processNow(device.submitNow(PaymentRequest(productID: "com.example.coins100")).id)
        withExtendedLifetime(listener) {}
        _ = try store.advance(by: 31 * 86_400)
        store.runUntilIdle()
        let all = store.allTransactions().map(\.id)
        let expected = try Answers(store, ids: all)
        let fingerprinted = try fingerprint(store)
        try store.flush()
        try store.close()
        #expect(all.count > ids.count)

        // Reopened with the entries after the tables: replayed on the whole history.
        let replayed = try SimulatedStore(
            statePath: path, durability: StoreDurability(compactEvery: nil), lane: .manual)
        #expect(try fingerprint(replayed) == fingerprinted)
        #expect(try Answers(replayed, ids: all) == expected)
        try replayed.compact()
        try replayed.close()
        // Then compacted: read on demand, the same.
        let compacted = try SimulatedStore(statePath: path, lane: .manual)
        #expect(Self.loaded(compacted).isEmpty)
        #expect(try fingerprint(compacted) == fingerprinted)
        #expect(try Answers(compacted, ids: all) == expected)
        try compacted.close()
    }
}
