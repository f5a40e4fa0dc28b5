import Foundation
import Ledger
import ReceiptKit
import StoreModels
import Synchronization
import TestSupport
import Testing

@testable import StoreSimulator

/// Everything a store knows, as comparable text: the whole state (history, devices' unfinished transactions,
/// subscriptions with their schedule, settings, catalog, scripted outcomes, identifier counters) and the clock.
func fingerprint(_ store: SimulatedStore) throws -> String {
    let state = store.state.withLock { $0 }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let snapshot = StoreSnapshot(state, sequence: 0, time: store.now)
    return String(decoding: try encoder.encode(snapshot), as: UTF8.self)
}

/// Asserts that two stores are in the same state, through the public API and as a whole.
func expectSameState(
    _ left: SimulatedStore, _ right: SimulatedStore, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    #expect(left.now == right.now, sourceLocation: sourceLocation)
    #expect(left.allTransactions() == right.allTransactions(), sourceLocation: sourceLocation)
    for (deviceID, _) in StoreWorkload.devices {
        #expect(
            left.unfinishedTransactions(deviceID: deviceID) == right.unfinishedTransactions(deviceID: deviceID),
            sourceLocation: sourceLocation)
    }
    for account in ["default", "alice"] {
        #expect(left.subscriptions(of: account) == right.subscriptions(of: account), sourceLocation: sourceLocation)
    }
    #expect(left.settings == right.settings, sourceLocation: sourceLocation)
    #expect(left.nextSubscriptionEventDate == right.nextSubscriptionEventDate, sourceLocation: sourceLocation)
    #expect(try fingerprint(left) == fingerprint(right), sourceLocation: sourceLocation)
}

/// Runs a seeded workload on an in-memory store and on durable stores that `open` opens (the same state file or
/// database each time), closing the durable one and reopening it after every 150 steps, and expects both to be the
/// same throughout: the whole state, each device's unfinished transactions, and receipts byte for byte. The last
/// store is closed.
func expectReopenReproducesState(
    seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation, open: () throws -> SimulatedStore
) throws {
    let memory = SimulatedStore(lane: .manual)
    var durable = try open()
    var workload = StoreWorkload(seed: seed)
    workload.connect(memory)
    workload.connect(durable)
    for round in 0..<4 {
        for _ in 0..<150 { workload.step([memory, durable]) }
        try expectSameState(memory, durable, sourceLocation: sourceLocation)
        try durable.close()
        #expect(durable.durabilityError?.code == .stateWriteFailed, "closed", sourceLocation: sourceLocation)
        durable = try open()
        try expectSameState(memory, durable, sourceLocation: sourceLocation)
        for (deviceID, _) in StoreWorkload.devices {
            #expect(
                try memory.appReceipt(deviceID: deviceID) == durable.appReceipt(deviceID: deviceID),
                "round \(round): the receipt of \(deviceID), byte for byte", sourceLocation: sourceLocation)
        }
        workload.connect(memory)
        workload.connect(durable)
        #expect(durable.durabilityError == nil, "round \(round)", sourceLocation: sourceLocation)
    }
    let (consumption, massExtensions) = durable.state.withLock { ($0.consumption.count, $0.massExtensions.count) }
    #expect(
        consumption > 0 && massExtensions > 0, "the workload sent consumption information and extensions",
        sourceLocation: sourceLocation)
    // Identifiers go on from where they were: the next payment gets the same identifier in both.
    let (memoryDevice, memoryListener) = memory.silentConnection("d1")
    let (durableDevice, durableListener) = durable.silentConnection("d1")
    let next = memoryDevice.submitNow(PaymentRequest(productID: "com.example.pro"))
    #expect(
        durableDevice.submitNow(PaymentRequest(productID: "com.example.pro")).id == next.id,
        sourceLocation: sourceLocation)
    withExtendedLifetime((memoryListener, durableListener)) {}
    try durable.close()
}

/// Writes a meta value with Ledger directly, and closes the database again.
private func setMeta(_ value: Int64, forKey key: String, in path: String) throws {
    let database = try LedgerDatabase(path: path)
    try database.write { txn in try txn.setMeta(value, forKey: key) }
}

@Suite("Durable store")
struct DurableStoreTests {
    @Test(
        "A reopened store has exactly the state it had, and goes on as if it had never stopped",
        arguments: [
            (StoreDurability.Commit.everyChange, nil as Int?, UInt64(1)), (.group(every: 7), nil, 2),
            (.everyChange, 25, 3), (.group(every: 50), 40, 4),
        ])
    func reopenReproducesState(commit: StoreDurability.Commit, compactEvery: Int?, seed: UInt64) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let durability = StoreDurability(commit: commit, compactEvery: compactEvery)
        try expectReopenReproducesState(seed: seed) {
            try SimulatedStore(statePath: path, durability: durability, lane: .manual)
        }
    }

    @Test("SimulatedStore(database:) with a path is the state file init(statePath:) opens, reopened the same")
    func databasePathIsStatePath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let durability = StoreDurability(commit: .group(every: 5), compactEvery: 30)
        var opened = 0
        try expectReopenReproducesState(seed: 5) {
            opened += 1
            // Alternately: each opens what the other wrote.
            let store =
                opened % 2 == 0
                ? try SimulatedStore(statePath: path, durability: durability, lane: .manual)
                : try SimulatedStore(
                    database: directory.path + "/./state.sqlite", durability: durability, lane: .manual)
            #expect(store.statePath == path)
            #expect(store.databaseLocation == path)
            return store
        }
        #expect(FileManager.default.fileExists(atPath: path + ".lock") == false, "closed: no lock file left")
    }

    @Test(
        "A compaction writes every row changed since the last one: reopened from the tables alone, the store is whole")
    func compactionWritesEveryChangedRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try Self.expectCompactionWritesEveryChangedRow { durability in
            try SimulatedStore(statePath: path, durability: durability, lane: .manual)
        }
    }

    /// Changes rows of every kind, compacts and reopens the store `open` opens (the same file or database each time),
    /// then changes a few and does it again, expecting the store reopened from its tables alone to be the in-memory
    /// one each time. The last store is closed.
    static func expectCompactionWritesEveryChangedRow(open: (StoreDurability) throws -> SimulatedStore) throws {
        // Compacted only when asked, so that the journal is empty after each compaction and a reopened store is the
        // tables alone.
        let durability = StoreDurability(compactEvery: nil)
        let memory = SimulatedStore(lane: .manual)
        var durable = try open(durability)
        let accounts = (0..<12).map { "account-\($0)" }
        var listeners: [SilentListener] = []
        /// Applies `change` to both stores, and runs their lanes.
        func both(_ change: (SimulatedStore) throws -> Void) rethrows {
            for store in [memory, durable] {
                try change(store)
                store.runUntilIdle()
            }
        }
        func connect(_ deviceID: String, account: String) {
            for store in [memory, durable] { listeners.append(store.silentConnection(deviceID, account: account).1) }
        }
        func offer(_ nonce: String, at now: Date) -> PaymentRequest {
            PaymentRequest(
                productID: "com.example.premium.monthly",
                discount: DiscountRequest(
                    offerID: "com.example.premium.monthly.winback", keyID: "KEY", nonce: nonce,
                    signature: "c2lnbmF0dXJl", timestamp: JWSDate(now).millisecondsSince1970))
        }
        /// Compacts, checks the journal is empty, and reopens the durable store from its file or database.
        func compactAndReopen(_ round: String) throws {
            try durable.compact()
            let entries = try #require(durable.ledger).read { txn in try txn.logCount(in: StoreJournal.logName) }
            #expect(entries == 0, "\(round): the tables hold everything")
            try durable.close()
            durable = try open(durability)
            #expect(try fingerprint(durable) == fingerprint(memory), "\(round)")
            for account in accounts {
                #expect(durable.accountSettings(account) == memory.accountSettings(account), "\(round)")
                #expect(durable.family(of: account) == memory.family(of: account), "\(round)")
            }
        }

        // Every kind of row, for every account.
        for (index, account) in accounts.enumerated() {
            connect("device-\(index)", account: account)
            try both { store in
                _ = try store.buyProduct("com.example.premium.monthly", account: account)
                _ = try store.buyProduct("com.example.coins100", account: account)
                store.updateAccountSettings(account) { $0.askToBuyEnabled = index % 2 == 0 }
                if index % 3 == 0 { try store.joinFamily("family-\(index / 6)", account: account) }
                store.setReceiptExpired(index % 4 == 0, deviceID: "device-\(index)")
                let coins = try #require(store.allTransactions().last { $0.account == account })
                try store.setConsumptionInformation(
                    ConsumptionInformation(sampleContentProvided: true, deliveryStatus: .delivered),
                    forTransaction: coins.id)
            }
            let (device, listener) = durable.silentConnection("device-\(index)", account: account)
            let (twin, twinListener) = memory.silentConnection("device-\(index)", account: account)
            listeners += [listener, twinListener]
            _ = device.submit(offer("nonce-\(index)", at: durable.now))
            _ = twin.submit(offer("nonce-\(index)", at: memory.now))
            both { _ in }
        }
        try both { store in
            _ = try store.extendRenewalDates(
                productID: "com.example.premium.monthly", by: 86_400, requestIdentifier: "first")
        }
        try compactAndReopen("every row written")

        // A few accounts change; the others stay as the first compaction wrote them.
        for index in [1, 6, 10] {
            let account = accounts[index]
            try both { store in
                store.updateAccountSettings(account) { $0.askToBuyEnabled = nil }  // follows the store: row removed
                if store.family(of: account) != nil {
                    try store.leaveFamily(account: account)
                } else {
                    try store.joinFamily("family-late", account: account)
                }
                store.setReceiptExpired(index % 4 != 0, deviceID: "device-\(index)")
                let coins = try #require(store.allTransactions().last { $0.account == account })
                try store.setConsumptionInformation(
                    ConsumptionInformation(sampleContentProvided: false, deliveryStatus: .undeliveredQualityIssue),
                    forTransaction: coins.id)
                _ = try store.buyProduct("com.example.coins100", account: account)
            }
            // A device that signs in to another account, and a new device.
            connect("device-\(index)", account: accounts[(index + 1) % accounts.count])
            connect("new-device-\(index)", account: account)
            let (device, listener) = durable.silentConnection("new-device-\(index)", account: account)
            let (twin, twinListener) = memory.silentConnection("new-device-\(index)", account: account)
            listeners += [listener, twinListener]
            _ = device.submit(offer("late-nonce-\(index)", at: durable.now))
            _ = twin.submit(offer("late-nonce-\(index)", at: memory.now))
            _ = device.submitNow(PaymentRequest(productID: "com.example.pro"))  // left purchasing
            _ = twin.submitNow(PaymentRequest(productID: "com.example.pro"))
            both { _ in }
        }
        try both { store in
            _ = try store.extendRenewalDates(
                productID: "com.example.premium.monthly", by: 3_600, requestIdentifier: "second")
        }
        try compactAndReopen("some rows changed")
        withExtendedLifetime(listeners) {}
        try durable.close()
    }

    @Test("A process killed at any moment leaves exactly the acknowledged changes", arguments: [1, 5, 64])
    func killedKeepsAcknowledged(groupSize: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let commit: StoreDurability.Commit = groupSize == 1 ? .everyChange : .group(every: groupSize)
        let store = try SimulatedStore(statePath: path, durability: StoreDurability(commit: commit), lane: .manual)
        let ledger = try #require(store.ledger)
        func changes() throws -> Int { try ledger.read { txn in try txn.logCount(in: StoreJournal.logName) } }
        // The state after each number of recorded changes.
        var states = [0: try fingerprint(store)]
        // Nobody listens, so that no event commits early and every change is one step of this loop.
        let (device, _) = store.silentConnection("d1")
        device.disconnect()
        states[try changes()] = try fingerprint(store)
        var generator = SeededRandom(seed: UInt64(groupSize))
        var committed = 0
        for index in 1...150 {
            let pick = Int.random(in: 0..<100, using: &generator)
            let unfinished = store.unfinishedTransactions(deviceID: "d1")
            switch pick {
            case 0..<35:
                _ = device.submitNow(PaymentRequest(productID: StoreWorkload.products[pick % 5]))
            case 35..<60:
                if let purchasing = unfinished.first(where: { $0.state == .purchasing }) {
                    device.processNow(purchasing.id)
                }
            case 60..<80:
                if let done = unfinished.first(where: { $0.state != .purchasing && $0.state != .deferred }) {
                    device.finishNow(done.id)
                }
            case 80..<90:
                _ = try? store.buyProduct("com.example.coins100")
            default:
                try store.advance(by: 86_400 * Double(pick - 85))
            }
            let count = try changes()
            states[count] = try fingerprint(store)
            if index % 40 == 0 {
                try store.flush()
                committed = count
            } else if groupSize == 1 || store.pendingChanges == 0 {
                committed = count
            } else {
                committed = max(committed, count - store.pendingChanges)
            }
            guard index % 7 == 0 else { continue }
            // What a kill at this instant leaves: exactly the committed changes, in order.
            let killed = directory.file("killed-\(index).sqlite")
            try copyAsIfKilled(path, to: killed)
            let reopened = try SimulatedStore(statePath: killed, lane: .manual)
            let found = try fingerprint(reopened)
            #expect(
                found == states[committed],
                "after \(committed) of \(count) changes; matches \(states.filter { $0.value == found }.map(\.key))")
            try reopened.close()
        }
        try store.close()
    }

    @Test("In group commit, changes wait for a commit, and a device hears nothing that is not committed")
    func groupCommitFlushesBeforeCallbacks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let store = try SimulatedStore(
            statePath: path, durability: StoreDurability(commit: .group(every: 1000)), lane: .manual)
        final class CheckingDevice: DeviceListener, @unchecked Sendable {
            let pendingWhenHeard = Mutex<[Int]>([])
            func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent) {
                pendingWhenHeard.withLock { $0.append(connection.store.pendingChanges) }
            }
        }
        let device = CheckingDevice()
        let connection = store.connect(deviceID: "checking", frontEnd: "tests", listener: device)
        for _ in 0..<5 {
            connection.submit(PaymentRequest(productID: "com.example.coins100")) { _ in
                #expect(store.pendingChanges > 0, "recorded, not yet committed")
            }
            store.runUntilIdle()
            for transaction in connection.unfinishedTransactions { connection.finish(transaction.id) }
        }
        _ = try store.buyProduct("com.example.pro")
        store.runUntilIdle()
        let heard = device.pendingWhenHeard.withLock { $0 }
        #expect(heard.count == 16, "purchasing, purchased and removed of five payments, and the purchase elsewhere")
        #expect(heard.allSatisfy { $0 == 0 }, "committed before each event: \(heard)")
        try store.close()
        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(reopened.allTransactions().count == 6)
        try reopened.close()
    }

    @Test("In group commit, a run of the lane commits once, then its device hears the whole run, in order")
    func groupCommitOncePerRun() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let store = try SimulatedStore(
            statePath: path, durability: StoreDurability(commit: .group(every: 1000)), lane: .manual)
        final class RecordingDevice: DeviceListener, @unchecked Sendable {
            // @unchecked: `atFirstEvent` is set before the lane runs.
            let heard = Mutex<[String]>([])
            var atFirstEvent: (() -> Void)?
            func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent) {
                if let atFirstEvent {
                    self.atFirstEvent = nil
                    atFirstEvent()
                }
                let pending = connection.store.pendingChanges
                switch event {
                case .updated(let transactions):
                    heard.withLock { $0 += transactions.map { "\($0.id) \($0.state) pending \(pending)" } }
                case .removed(let ids):
                    heard.withLock { $0 += ids.map { "\($0) removed pending \(pending)" } }
                default:
                    heard.withLock { $0.append("\(event)") }
                }
            }
        }
        let device = RecordingDevice()
        let connection = store.connect(deviceID: "recording", frontEnd: "tests", listener: device)
        let killed = directory.file("killed.sqlite")
        device.atFirstEvent = { try? copyAsIfKilled(path, to: killed) }
        let ids = (0..<3).map { _ in connection.submit(PaymentRequest(productID: "com.example.coins100")) }
        store.runUntilIdle()
        for id in ids { connection.finish(id) }
        store.runUntilIdle()
        let expected =
            ids.flatMap { ["\($0) purchasing pending 0", "\($0) purchased pending 0"] }
            + ids.map { "\($0) removed pending 0" }
        #expect(device.heard.withLock { $0 } == expected)
        // A kill as the device heard its first event of the run leaves the whole run: one commit before any event.
        let reopened = try SimulatedStore(statePath: killed, lane: .manual)
        #expect(reopened.allTransactions().map(\.id) == ids)
        #expect(
            reopened.unfinishedTransactions(deviceID: "recording").map(\.state) == [.purchased, .purchased, .purchased])
        try reopened.close()
        try store.close()
    }

    @Test("In group commit on a dispatch lane, the device hears every event once the lane is idle, all committed")
    func groupCommitOnDispatchLane() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let lane = DispatchQueue(label: "durable-store-tests.lane")
        let store = try SimulatedStore(
            statePath: path, durability: StoreDurability(commit: .group(every: 1000)), lane: .dispatch(lane))
        final class CountingDevice: DeviceListener, @unchecked Sendable {
            let heard = Mutex<[String]>([])
            func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent) {
                let pending = connection.store.pendingChanges
                guard case .updated(let transactions) = event else { return }
                heard.withLock { $0 += transactions.map { "\($0.id) \($0.state) pending \(pending)" } }
            }
        }
        let device = CountingDevice()
        let connection = store.connect(deviceID: "counting", frontEnd: "tests", listener: device)
        // The lane waits while the three are added: a payment added while the lane delivers would be a change
        // pending at that moment, made after the run's commit, not one the run left uncommitted.
        lane.suspend()
        let ids = (0..<3).map { _ in connection.submit(PaymentRequest(productID: "com.example.coins100")) }
        lane.resume()
        store.runUntilIdle()
        let expected = ids.flatMap { ["\($0) purchasing pending 0", "\($0) purchased pending 0"] }
        #expect(device.heard.withLock { $0 } == expected)
        try store.close()
    }

    @Test("A new file starts from the configuration given; an existing one keeps its own, and its clock")
    func configurationAndClock() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let catalog = StoreConfiguration(
            catalog: StoreCatalog(products: [ProductDefinition(id: "gems", type: .consumable, price: 1.99)]),
            sourceName: "gems")
        let clock = ManualClock()
        let store = try SimulatedStore(statePath: path, configuration: catalog, clock: clock, lane: .manual)
        let (nobody, listener) = store.silentConnection("nobody")
        clock.advance(by: 3600)  // moved directly: recorded when the store is flushed or closed
        nobody.processNow(42)  // records nothing, and does not hide the move
        withExtendedLifetime(listener) {}
        try store.close()
        let laterClock = ManualClock()
        let reopened = try SimulatedStore(statePath: path, configuration: .demo, clock: laterClock, lane: .manual)
        #expect(reopened.catalog.products.map(\.id) == ["gems"])
        #expect(reopened.catalog.product("gems")?.price == Decimal(string: "1.99"))
        #expect(laterClock.now == ManualClock.defaultStart.addingTimeInterval(3600))
        try reopened.close()
    }

    @Test("A file is open in one store at a time; closing makes the path available again")
    func openOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(throws: StoreSimulatorError(.stateUnavailable, "")) {
            try SimulatedStore(statePath: directory.path + "/./state.sqlite", lane: .manual)
        }
        try store.close()
        try store.close()  // closing twice is harmless
        let again = try SimulatedStore(statePath: path, lane: .manual)
        #expect(again.statePath == path)
        #expect(again.isDurable)
        try again.close()
        #expect(SimulatedStore(lane: .manual).statePath == nil)
    }

    @Test("A state file from a newer release is refused and left untouched")
    func newerFormatRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try SimulatedStore(statePath: path, lane: .manual).close()
        try setMeta(3, forKey: StoreJournal.formatKey, in: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            _ = try SimulatedStore(statePath: path, lane: .manual)
            Issue.record("a newer format opened")
        } catch {
            #expect(error.code == .stateTooNew)
            #expect(error.detail.contains(path))
            #expect(error.detail.contains("format 3"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
