import Foundation
import OpenStoreKit
import StoreModels
import StoreSimulator
import Testing

/// A fresh directory for state files, removed by ``remove()``.
private struct StateDirectory {
    let path = FileManager.default.temporaryDirectory.path + "/relaunch-tests-" + UUID().uuidString

    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

private func pay(_ queue: SKPaymentQueue, _ product: String, askToBuy: Bool = false) {
    let payment = SKMutablePayment()
    payment.productIdentifier = product
    payment.simulatesAskToBuyInSandbox = askToBuy
    queue.add(payment)
}

@Suite("Relaunch from a state file")
struct DurableRelaunchTests {
    static let durabilities = [
        StoreDurability(), StoreDurability(commit: .group(every: 16)), StoreDurability(compactEvery: 3),
    ]

    @Test(
        "A queue reopened on a reopened store gets its unfinished transactions once; finished ones never come back",
        arguments: durabilities)
    func redeliveryAfterReopen(durability: StoreDurability) throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let path = directory.path + "/state.sqlite"
        var store = try SimulatedStore(statePath: path, durability: durability, lane: .manual)
        let first = SKPaymentQueue(store: store, deviceID: "device-1")
        let keeper = RecordingObserver(policy: .keep)
        first.add(keeper)
        for product in ["com.example.pro", "com.example.coins100", "com.example.premium.monthly"] {
            pay(first, product)
        }
        store.runUntilIdle()
        let seen = first.transactions.map(\.storeIdentifier)
        #expect(first.transactions.map(\.transactionState) == [.purchased, .purchased, .purchased])
        try store.close()

        store = try SimulatedStore(statePath: path, durability: durability, lane: .manual)
        let relaunched = SKPaymentQueue(store: store, deviceID: "device-1")
        #expect(relaunched.transactions.map(\.storeIdentifier) == seen)
        let observer = RecordingObserver(policy: .keep)
        relaunched.add(observer)
        store.runUntilIdle()
        #expect(
            observer.events == [
                "updated com.example.pro:purchased,com.example.coins100:purchased,com.example.premium.monthly:purchased"
            ])
        let late = RecordingObserver(policy: .keep)
        relaunched.add(late)
        store.runUntilIdle()
        #expect(late.events.isEmpty, "already reported in this process")
        relaunched.finishTransaction(relaunched.transactions[1])
        store.runUntilIdle()
        #expect(relaunched.transactions.count == 2)
        try store.close()

        store = try SimulatedStore(statePath: path, durability: durability, lane: .manual)
        let third = SKPaymentQueue(store: store, deviceID: "device-1")
        #expect(
            third.transactions.map(\.payment.productIdentifier) == ["com.example.pro", "com.example.premium.monthly"])
        for transaction in third.transactions { third.finishTransaction(transaction) }
        store.runUntilIdle()
        try store.close()

        store = try SimulatedStore(statePath: path, durability: durability, lane: .manual)
        let fourth = SKPaymentQueue(store: store, deviceID: "device-1")
        #expect(fourth.transactions.isEmpty, "finished transactions never come back")
        #expect(store.allTransactions().map(\.id) == seen, "the history is kept")
        // Identifiers are never reused.
        pay(fourth, "com.example.coins100")
        store.runUntilIdle()
        let next = try #require(fourth.transactions.last?.storeIdentifier)
        #expect(next > seen.max()!)
        try store.close()
    }

    @Test("A transaction that was purchasing when the process stopped goes on after the restart, charged once")
    func purchasingResumes() throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let path = directory.path + "/state.sqlite"
        var store = try SimulatedStore(statePath: path, lane: .manual)
        let queue = SKPaymentQueue(store: store, deviceID: "device-2")
        pay(queue, "com.example.pro")
        // The process stops before the store decides: the lane's work is lost with it.
        #expect(store.unfinishedTransactions(deviceID: "device-2").map(\.state) == [.purchasing])
        try store.close()

        store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(store.unfinishedTransactions(deviceID: "device-2").map(\.state) == [.purchasing])
        let relaunched = SKPaymentQueue(store: store, deviceID: "device-2")
        let observer = RecordingObserver()
        relaunched.add(observer)
        store.runUntilIdle()
        #expect(observer.states(of: "com.example.pro") == [.purchased])
        #expect(relaunched.transactions.isEmpty)
        #expect(store.allTransactions().count == 1, "charged once")
        try store.close()
    }

    @Test("A pending Ask to Buy request survives the restart; the approval reaches the relaunched app")
    func askToBuySurvives() throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let path = directory.path + "/state.sqlite"
        var store = try SimulatedStore(
            statePath: path, durability: StoreDurability(commit: .group(every: 8)), lane: .manual)
        let queue = SKPaymentQueue(store: store, deviceID: "child")
        let observer = RecordingObserver()
        queue.add(observer)
        pay(queue, "com.example.pro", askToBuy: true)
        store.runUntilIdle()
        #expect(observer.states(of: "com.example.pro") == [.purchasing, .deferred])
        let pending = try #require(store.allTransactions().first { $0.pendingAskToBuyConfirmation })
        try store.close()

        store = try SimulatedStore(statePath: path, lane: .manual)
        let relaunched = SKPaymentQueue(store: store, deviceID: "child")
        let later = RecordingObserver()
        relaunched.add(later)
        store.runUntilIdle()
        #expect(later.states(of: "com.example.pro") == [.deferred])
        try store.approveAskToBuy(pending.id)
        store.runUntilIdle()
        #expect(later.states(of: "com.example.pro") == [.deferred, .purchased])
        #expect(store.transaction(pending.id)?.state == .purchased)
        try store.close()
    }

    @Test("A queue opened from a state file path gets its device's unfinished transactions after a restart")
    func queueFromPath() throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let path = directory.path + "/state.sqlite"
        var queue = try SKPaymentQueue(statePath: path, deviceID: "tablet", lane: .manual)
        queue.add(RecordingObserver(policy: .keep))
        pay(queue, "com.example.coins100")
        queue.store.runUntilIdle()
        #expect(queue.store.statePath == path)
        try queue.store.close()
        queue = try SKPaymentQueue(statePath: path, deviceID: "tablet", lane: .manual)
        #expect(queue.transactions.map(\.transactionState) == [.purchased])
        try queue.store.close()
        #expect(throws: StoreSimulatorError(.stateUnavailable, "")) {
            try SKPaymentQueue(statePath: directory.path, lane: .manual)  // a directory, not a file
        }
    }

    @Test("The receipt of a reopened store is the receipt it had")
    func receiptSurvives() throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let path = directory.path + "/state.sqlite"
        var store = try SimulatedStore(statePath: path, lane: .manual)
        let queue = SKPaymentQueue(store: store)
        queue.add(RecordingObserver())
        pay(queue, "com.example.pro")
        pay(queue, "com.example.premium.monthly")
        store.runUntilIdle()
        try store.advance(by: 40 * 86_400)
        store.runUntilIdle()
        store.setReceiptExpired(true, deviceID: SKPaymentQueue.defaultDeviceID)
        let before = try store.appReceipt()
        try store.close()
        store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(try store.appReceipt() == before)
        try store.close()
    }
}
