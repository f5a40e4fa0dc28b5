import Foundation
import OpenStoreKit
import Purchases
import StoreSimulator
import Synchronization
import TestSupport
import Testing

/// Counts the deliveries of each transaction, across relaunches.
private final class Grants: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    @Sendable func grant(_ delivery: Delivery) { counts.withLock { $0[delivery.transactionID, default: 0] += 1 } }
    var all: [String: Int] { counts.withLock { $0 } }
}

@Suite("The default delivery journal")
struct DurableDefaultJournalTests {
    @Test("On a durable store the default journal is the state file's: redelivered after a restart, not granted again")
    func durableByDefault() throws {
        let folder = try TemporaryDirectory(prefix: "default-journal-tests")
        defer { folder.remove() }
        let path = folder.path + "/state.sqlite"
        let grants = Grants()

        let store = try SimulatedStore(statePath: path, lane: .manual)
        let queue = SKPaymentQueue(store: store, deviceID: "phone")
        let controller = PurchaseController(queue: queue, deliver: grants.grant)
        #expect(controller.journal is LedgerDeliveryJournal)
        controller.loadProducts(["com.example.coins100"]) { _ in }
        store.runUntilIdle()
        let outcome = Calls<Result<PurchaseOutcome, PurchasesError>>()
        controller.purchase(productID: "com.example.coins100") { result in
            outcome.record(result)
            // Delivered, and the finish has not reached the store yet: the process stops here.
            try? store.close()
        }
        store.runUntilIdle()
        guard case .success(.purchased(let delivery)) = outcome.last else {
            Issue.record("not purchased: \(outcome.all)")
            return
        }
        #expect(grants.all == [delivery.transactionID: 1])

        let relaunched = try SimulatedStore(statePath: path, lane: .manual)
        let relaunchedQueue = SKPaymentQueue(store: relaunched, deviceID: "phone")
        #expect(relaunchedQueue.transactions.map(\.transactionIdentifier) == [delivery.transactionID])
        let relaunchedController = PurchaseController(queue: relaunchedQueue, deliver: grants.grant)
        relaunched.runUntilIdle()
        #expect(grants.all == [delivery.transactionID: 1], "granted once, across the restart")
        #expect(relaunchedQueue.transactions.isEmpty, "finished after the restart")
        withExtendedLifetime(relaunchedController) {}
        try relaunched.close()

        let third = try SimulatedStore(statePath: path, lane: .manual)
        #expect(SKPaymentQueue(store: third, deviceID: "phone").transactions.isEmpty, "the finish was saved")
        try third.close()
    }

    @Test("On an in-memory store the default journal is in memory")
    func inMemoryByDefault() {
        let queue = SKPaymentQueue(store: SimulatedStore(lane: .manual))
        let controller = PurchaseController(queue: queue) { _ in }
        #expect(controller.journal is InMemoryDeliveryJournal)
    }
}
