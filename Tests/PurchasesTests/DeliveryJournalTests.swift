import Foundation
import OpenStoreKit
import Purchases
import StoreModels
import StoreSimulator
import Synchronization
import Testing

@testable import Ledger

/// A fresh directory for state files, removed by ``remove()``.
private struct StateDirectory {
    let path = FileManager.default.temporaryDirectory.path + "/delivery-tests-" + UUID().uuidString

    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Copies a state file and its write-ahead log as a process killed now would leave them.
private func copyAsIfKilled(_ path: String, to destination: String) throws {
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
        try FileManager.default.copyItem(atPath: path + suffix, toPath: destination + suffix)
    }
}

/// An app with its content in the store's own database: coins in a meta counter, one log entry per grant.
private struct DurableApp {
    let store: SimulatedStore
    let queue: SKPaymentQueue
    let journal: LedgerDeliveryJournal
    let controller: PurchaseController

    /// Opens the app on a state file; `afterGrant` runs right after each delivery is committed.
    init(path: String, afterGrant: @escaping @Sendable (String) -> Void = { _ in }) throws {
        store = try SimulatedStore(statePath: path, lane: .manual)
        queue = SKPaymentQueue(store: store, deviceID: "phone")
        let journal = LedgerDeliveryJournal(database: try #require(store.ledger), clock: store.clock)
        self.journal = journal
        controller = PurchaseController(queue: queue, journal: journal) { delivery in
            try journal.deliver(delivery.transactionID) { txn in
                try txn.incrementMeta(forKey: "coins", by: Int64(100 * delivery.quantity))
                try txn.appendLog(Array(delivery.transactionID.utf8), to: "grants")
            }
            afterGrant(delivery.transactionID)
        }
        controller.loadProducts(["com.example.coins100"]) { _ in }
        store.runUntilIdle()
    }

    var coins: Int64 { (try? store.ledger?.read { txn in try txn.metaInteger(forKey: "coins") }) ?? nil ?? 0 }

    var grants: [String] {
        let entries = (try? store.ledger?.read { txn in try txn.logEntries(in: "grants") }) ?? nil ?? []
        return entries.map { String(decoding: $0.payload, as: UTF8.self) }
    }
}

@Suite("Durable delivery")
struct DeliveryJournalTests {
    @Test("A delivery recorded in a Ledger journal is there after reopening, with its date")
    func journalIsDurable() throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let path = directory.file("app.sqlite")
        let clock = ManualClock()
        do {
            let journal = LedgerDeliveryJournal(database: try LedgerDatabase(path: path), clock: clock)
            #expect(!journal.isDelivered("42"))
            try journal.markDelivered("42")
            clock.advance(by: 60)
            try journal.markDelivered("42")  // already recorded: keeps the first date
        }
        let reopened = LedgerDeliveryJournal(database: try LedgerDatabase(path: path))
        #expect(reopened.isDelivered("42"))
        #expect(!reopened.isDelivered("43"))
        #expect(reopened.deliveryDate("42") == ManualClock.defaultStart)
    }

    @Test("deliver grants once: a second call does nothing, and a grant that throws records nothing")
    func deliverOnce() throws {
        let database = try LedgerDatabase.inMemory()
        let journal = LedgerDeliveryJournal(database: database, clock: ManualClock())
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try journal.deliver("7") { txn in
                try txn.incrementMeta(forKey: "coins", by: 100)
                throw Refused()
            }
        }
        #expect(!journal.isDelivered("7"))
        #expect(try journal.deliver("7") { txn in try txn.incrementMeta(forKey: "coins", by: 100) })
        #expect(try !journal.deliver("7") { txn in try txn.incrementMeta(forKey: "coins", by: 100) })
        #expect(try database.read { txn in try txn.metaInteger(forKey: "coins") } == 100)
    }

    @Test("Killed between delivering and finishing: the purchase comes back, is finished, and is not granted twice")
    func crashBetweenDeliveringAndFinishing() throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let path = directory.file("app.sqlite")
        let killed = directory.file("killed.sqlite")
        let copied = Mutex(false)
        let app = try DurableApp(path: path) { _ in
            // The grant is committed and the transaction not yet finished: a kill here leaves this.
            try? copyAsIfKilled(path, to: killed)
            copied.withLock { $0 = true }
        }
        let outcome = Calls<Result<PurchaseOutcome, PurchasesError>>()
        app.controller.purchase(productID: "com.example.coins100", completion: outcome.record)
        app.store.runUntilIdle()
        #expect(copied.withLock { $0 })
        #expect(app.coins == 100)
        #expect(app.queue.transactions.isEmpty, "finished in the process that was not killed")
        try app.store.close()

        let relaunched = try DurableApp(path: killed)
        let history = relaunched.store.allTransactions()
        #expect(history.count == 1, "charged once")
        #expect(relaunched.queue.transactions.isEmpty, "redelivered and finished at once")
        #expect(relaunched.store.unfinishedTransactions(deviceID: "phone").isEmpty)
        #expect(relaunched.coins == 100, "not granted again")
        #expect(relaunched.grants == [String(history[0].id)])
        try relaunched.store.close()
    }

    /// A trigger that makes every insert of a delivery record fail, as a full disk or an I/O error in the second
    /// write of a delivery would.
    private static let failingRecord = """
        CREATE TRIGGER fail_delivery_record BEFORE INSERT ON deliveries
        BEGIN SELECT RAISE(ABORT, 'injected failure writing the delivery record'); END
        """

    @Test("deliver: when writing the record fails, the grant written before it is undone")
    func failedRecordUndoesGrant() throws {
        let database = try LedgerDatabase.inMemory()
        try database.withConnection { connection throws(LedgerError) in try connection.execute(Self.failingRecord) }
        let journal = LedgerDeliveryJournal(database: database, clock: ManualClock())
        let error = #expect(throws: LedgerError.self) {
            try journal.deliver("7") { txn in
                try txn.incrementMeta(forKey: "coins", by: 100)
                try txn.appendLog(Array("7".utf8), to: "grants")
            }
        }
        #expect(error?.detail.contains("injected failure") == true, "\(String(describing: error))")
        #expect(try database.read { txn in try txn.metaInteger(forKey: "coins") } == nil, "nothing granted")
        #expect(try database.read { txn in try txn.logCount(in: "grants") } == 0)
        #expect(!journal.isDelivered("7"))
        try database.withConnection { connection throws(LedgerError) in
            try connection.execute("DROP TRIGGER fail_delivery_record")
        }
        #expect(try journal.deliver("7") { txn in try txn.incrementMeta(forKey: "coins", by: 100) })
        #expect(try database.read { txn in try txn.metaInteger(forKey: "coins") } == 100)
    }

    @Test("A purchase whose delivery record cannot be written is not granted, stays unfinished, and is delivered later")
    func failedRecordIsDeliveredAgain() throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let path = directory.file("app.sqlite")
        do {
            let store = try SimulatedStore(statePath: path, lane: .manual)
            let queue = SKPaymentQueue(store: store, deviceID: "phone")
            let payment = SKMutablePayment()
            payment.productIdentifier = "com.example.coins100"
            queue.add(payment)
            store.runUntilIdle()  // charged; no observer, so nothing is delivered yet
            try store.close()
        }
        try LedgerDatabase(path: path).withConnection { connection throws(LedgerError) in
            try connection.execute(Self.failingRecord)
        }
        let failing = try DurableApp(path: path)
        #expect(failing.coins == 0, "nothing granted")
        #expect(failing.grants.isEmpty)
        let id = try #require(failing.store.allTransactions().first).id
        #expect(!failing.journal.isDelivered(String(id)))
        #expect(failing.store.unfinishedTransactions(deviceID: "phone").map(\.id) == [id], "left unfinished")
        try failing.store.close()

        try LedgerDatabase(path: path).withConnection { connection throws(LedgerError) in
            try connection.execute("DROP TRIGGER fail_delivery_record")
        }
        let relaunched = try DurableApp(path: path)
        #expect(relaunched.coins == 100, "granted once, on the next launch")
        #expect(relaunched.grants == [String(id)])
        #expect(relaunched.journal.isDelivered(String(id)))
        #expect(relaunched.store.unfinishedTransactions(deviceID: "phone").isEmpty)
        try relaunched.store.close()
    }

    @Test("Killed after the charge and before the delivery: the purchase comes back and is granted once")
    func crashBeforeDelivering() throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let path = directory.file("app.sqlite")
        do {
            let store = try SimulatedStore(statePath: path, lane: .manual)
            let queue = SKPaymentQueue(store: store, deviceID: "phone")
            let payment = SKMutablePayment()
            payment.productIdentifier = "com.example.coins100"
            queue.add(payment)
            store.runUntilIdle()  // charged; no observer, so nothing is delivered
            #expect(queue.transactions.map(\.transactionState) == [.purchased])
            try store.close()
        }
        let app = try DurableApp(path: path)
        #expect(app.coins == 100)
        #expect(app.queue.transactions.isEmpty)
        try app.store.close()
    }
}

/// An app that finishes purchases before delivering them: the mistake the audit exists for.
private final class HastyApp: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    let journal: any DeliveryJournal
    let deliversFirst: Bool

    init(journal: any DeliveryJournal, deliversFirst: Bool) {
        self.journal = journal
        self.deliversFirst = deliversFirst
    }

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions {
            switch transaction.transactionState {
            case .purchased, .restored:
                let id = transaction.transactionIdentifier ?? ""
                if deliversFirst {
                    try? journal.markDelivered(id)
                    queue.finishTransaction(transaction)
                } else {
                    queue.finishTransaction(transaction)
                    try? journal.markDelivered(id)
                }
            case .failed:
                queue.finishTransaction(transaction)
            default:
                break
            }
        }
    }
}

@Suite("Delivery audit")
struct DeliveryAuditTests {
    private func buy(_ products: [String], on queue: SKPaymentQueue) {
        for product in products {
            let payment = SKMutablePayment()
            payment.productIdentifier = product
            queue.add(payment)
        }
    }

    @Test("An app that finishes before recording the delivery is flagged, once per transaction")
    func flagsFinishBeforeDelivery() {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let heard = Calls<DeliveryAudit.Violation>()
        let audit = DeliveryAudit(queue: queue, onViolation: heard.record)
        let app = HastyApp(journal: audit, deliversFirst: false)
        queue.add(app)
        store.script(.fail(StoreFailure(.paymentCancelled, "cancelled")), forProduct: "com.example.season")
        buy(["com.example.coins100", "com.example.pro", "com.example.season"], on: queue)
        store.runUntilIdle()
        queue.restoreCompletedTransactions()
        store.runUntilIdle()
        let ids = store.allTransactions().filter { $0.state == .purchased }.map { String($0.id) }
        #expect(audit.violations.map(\.productID) == ["com.example.coins100", "com.example.pro", "com.example.pro"])
        #expect(audit.violations.map(\.state) == [.purchased, .purchased, .restored])
        #expect(Array(audit.violations.prefix(2).map(\.transactionID)) == ids)
        #expect(heard.all == audit.violations)
        #expect(audit.checkedFinishes == 3, "the failed purchase is not checked")
        #expect(audit.violations[0].description.contains("finished before its delivery was recorded"))
        // The app did record the deliveries, just too late.
        #expect(ids.allSatisfy { audit.isDelivered($0) })
    }

    @Test("An app that records each delivery before finishing passes, and so does the purchase controller")
    func passesDeliveryFirst() throws {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let audit = DeliveryAudit(queue: queue)
        let app = HastyApp(journal: audit, deliversFirst: true)
        queue.add(app)
        buy(["com.example.coins100", "com.example.pro"], on: queue)
        store.runUntilIdle()
        #expect(audit.violations.isEmpty)
        #expect(audit.checkedFinishes == 2)

        let other = SimulatedStore(lane: .manual)
        let otherQueue = SKPaymentQueue(store: other)
        let controllerAudit = DeliveryAudit(queue: otherQueue)
        let shelf = Shelf()
        let controller = PurchaseController(queue: otherQueue, journal: controllerAudit, deliver: shelf.deliver)
        controller.loadProducts(["com.example.coins100", "com.example.pro"]) { _ in }
        other.runUntilIdle()
        for product in ["com.example.coins100", "com.example.pro", "com.example.coins100"] {
            controller.purchase(productID: product) { _ in }
            other.runUntilIdle()
        }
        controller.restore { _ in }
        other.runUntilIdle()
        #expect(shelf.products.count == 4)
        #expect(controllerAudit.violations.isEmpty)
        #expect(controllerAudit.checkedFinishes == 4)
        controllerAudit.stop()
        #expect(otherQueue.willFinishTransaction == nil)
    }
}
