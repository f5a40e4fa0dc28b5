import Foundation
import OpenStoreKit
import StoreModels
import StoreSimulator
import Testing

@Suite("Restoring completed transactions")
struct RestoreTests {
    private func purchaseEverything() -> (SimulatedStore, SKPaymentQueue, RecordingObserver) {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let observer = RecordingObserver()
        queue.add(observer)
        for product in [
            "com.example.coins100", "com.example.pro", "com.example.season", "com.example.premium.monthly",
        ] {
            let payment = SKMutablePayment()
            payment.productIdentifier = product
            queue.add(payment)
        }
        store.runUntilIdle()
        return (store, queue, observer)
    }

    @Test("Restore brings back non-consumables and subscriptions only, as new transactions with their original")
    func restoresMixedProducts() throws {
        let (store, queue, _) = purchaseEverything()
        let restoreObserver = RecordingObserver()
        queue.add(restoreObserver)
        queue.restoreCompletedTransactions()
        store.runUntilIdle()
        let restored = restoreObserver.updateBatches.flatMap { $0 }.filter { $0.transactionState == .restored }
        #expect(Set(restored.map(\.productIdentifier)) == ["com.example.pro", "com.example.premium.monthly"])
        let history = store.allTransactions()
        for transaction in restored {
            let original = try #require(transaction.object.original)
            #expect(original.transactionState == .purchased)
            #expect(original.payment.productIdentifier == transaction.productIdentifier)
            #expect(transaction.transactionIdentifier != original.transactionIdentifier, "a restore has its own id")
            #expect(history.contains { String($0.id) == original.transactionIdentifier })
            #expect(transaction.transactionDate == store.now)
        }
        #expect(restoreObserver.events.filter { $0 == "restoreFinished" }.count == 1)
        let finishedAt = try #require(restoreObserver.events.firstIndex(of: "restoreFinished"))
        let lastRestored = try #require(restoreObserver.events.lastIndex { $0.contains(":restored") })
        #expect(lastRestored < finishedAt, "the finished callback comes after every restored transaction")
    }

    @Test("Restoring twice makes new restored transactions each time")
    func restoreTwice() {
        let (store, queue, observer) = purchaseEverything()
        queue.restoreCompletedTransactions()
        store.runUntilIdle()
        queue.restoreCompletedTransactions()
        store.runUntilIdle()
        let ids = observer.updateBatches.flatMap { $0 }.filter { $0.transactionState == .restored }
            .compactMap(\.transactionIdentifier)
        #expect(ids.count == 4)
        #expect(Set(ids).count == 4)
    }

    @Test("Nothing to restore: no transactions, and the finished callback")
    func nothingToRestore() {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let observer = RecordingObserver()
        queue.add(observer)
        queue.restoreCompletedTransactions()
        store.runUntilIdle()
        #expect(observer.events == ["restoreFinished"])
    }

    @Test("A purchase still unfinished on the restoring device is not restored; the restore still ends once")
    func unfinishedIsNotRestored() {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let observer = RecordingObserver(policy: .keep)
        queue.add(observer)
        let payment = SKMutablePayment()
        payment.productIdentifier = "com.example.pro"
        queue.add(payment)
        store.runUntilIdle()
        queue.restoreCompletedTransactions()
        store.runUntilIdle()
        #expect(queue.transactions.map(\.transactionState) == [.purchased], "the queue holds the purchase alone")
        #expect(observer.states(of: "com.example.pro") == [.purchasing, .purchased])
        #expect(observer.events.filter { $0 == "restoreFinished" }.count == 1)
        #expect(observer.events.last == "restoreFinished")
    }

    @Test("Once finished, the same purchase is restored; unfinished renewals stay out while finished periods return")
    func finishedIsRestored() throws {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let observer = RecordingObserver(policy: .keep)
        queue.add(observer)
        for product in ["com.example.pro", "com.example.premium.yearly"] {
            let payment = SKMutablePayment()
            payment.productIdentifier = product
            queue.add(payment)
        }
        store.runUntilIdle()
        let pro = try #require(queue.transactions.first { $0.payment.productIdentifier == "com.example.pro" })
        queue.finishTransaction(pro)
        store.runUntilIdle()
        queue.restoreCompletedTransactions()
        store.runUntilIdle()
        let restored = observer.updateBatches.flatMap { $0 }.filter { $0.transactionState == .restored }
        #expect(restored.map(\.productIdentifier) == ["com.example.pro"], "the yearly purchase is still unfinished")
        #expect(observer.events.filter { $0 == "restoreFinished" }.count == 1)
    }

    @Test("A purchase unfinished on another device of the account is restored on this one")
    func unfinishedElsewhereIsRestored() {
        let store = SimulatedStore(lane: .manual)
        let phone = SKPaymentQueue(store: store, deviceID: "phone")
        let keeper = RecordingObserver(policy: .keep)
        phone.add(keeper)
        let payment = SKMutablePayment()
        payment.productIdentifier = "com.example.pro"
        phone.add(payment)
        store.runUntilIdle()
        let tablet = SKPaymentQueue(store: store, deviceID: "tablet")
        let observer = RecordingObserver(policy: .keep)
        tablet.add(observer)
        tablet.restoreCompletedTransactions()
        store.runUntilIdle()
        #expect(observer.states(of: "com.example.pro") == [.restored])
        #expect(observer.events.filter { $0 == "restoreFinished" }.count == 1)
        #expect(phone.transactions.map(\.transactionState) == [.purchased], "the phone's queue is unchanged")
    }

    @Test("A failed restore calls only the failed callback, with the error's code")
    func restoreFails() {
        let (store, queue, observer) = purchaseEverything()
        store.updateSettings {
            $0.simulatedErrors[.restore] = StoreFailure(.cloudServiceNetworkConnectionFailed, "offline")
        }
        queue.restoreCompletedTransactions()
        store.runUntilIdle()
        #expect(observer.events.last == "restoreFailed 7")
        #expect(!observer.events.contains("restoreFinished"))
    }

    @Test("Restoring with an application username restores that user's purchases and unnamed ones")
    func restoreWithUsername() {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let observer = RecordingObserver()
        queue.add(observer)
        for (product, user) in [("com.example.pro", "alice"), ("com.example.premium.yearly", "bob")] {
            let payment = SKMutablePayment()
            payment.productIdentifier = product
            payment.applicationUsername = user
            queue.add(payment)
        }
        store.runUntilIdle()
        queue.restoreCompletedTransactions(withApplicationUsername: "alice")
        store.runUntilIdle()
        let restored = observer.updateBatches.flatMap { $0 }.filter { $0.transactionState == .restored }
        #expect(restored.map(\.productIdentifier) == ["com.example.pro"])
        #expect(restored.first?.object.payment.applicationUsername == "alice")
    }

}

@Suite("Relaunch")
struct RelaunchTests {
    @Test("Unfinished transactions are reported again, once, to the first observer of a reopened queue")
    func redelivery() throws {
        let store = SimulatedStore(lane: .manual)
        var first: SKPaymentQueue? = SKPaymentQueue(store: store, deviceID: "device-1")
        let keeper = RecordingObserver(policy: .keep)
        first?.add(keeper)
        for product in ["com.example.pro", "com.example.coins100"] {
            let payment = SKMutablePayment()
            payment.productIdentifier = product
            first?.add(payment)
        }
        store.runUntilIdle()
        #expect(first?.transactions.count == 2)
        first = nil

        let relaunched = SKPaymentQueue(store: store, deviceID: "device-1")
        #expect(
            relaunched.transactions.map(\.payment.productIdentifier) == ["com.example.pro", "com.example.coins100"])
        let observer = RecordingObserver(policy: .keep)
        relaunched.add(observer)
        store.runUntilIdle()
        #expect(observer.events == ["updated com.example.pro:purchased,com.example.coins100:purchased"])
        let late = RecordingObserver(policy: .keep)
        relaunched.add(late)
        store.runUntilIdle()
        #expect(late.events.isEmpty, "already reported in this process")
        for transaction in relaunched.transactions { relaunched.finishTransaction(transaction) }
        store.runUntilIdle()
        #expect(relaunched.transactions.isEmpty)
        let third = SKPaymentQueue(store: store, deviceID: "device-1")
        #expect(third.transactions.isEmpty, "finished transactions never come back")
    }

    @Test("A transaction that was purchasing when the app stopped goes on after relaunch")
    func purchasingResumes() throws {
        let store = SimulatedStore(lane: .manual)
        var first: SKPaymentQueue? = SKPaymentQueue(store: store, deviceID: "device-2")
        let payment = SKMutablePayment()
        payment.productIdentifier = "com.example.pro"
        first?.add(payment)
        first = nil  // the app stops before the store answers
        #expect(store.unfinishedTransactions(deviceID: "device-2").map(\.state) == [.purchasing])

        let relaunched = SKPaymentQueue(store: store, deviceID: "device-2")
        let observer = RecordingObserver()
        relaunched.add(observer)
        store.runUntilIdle()
        #expect(observer.states(of: "com.example.pro") == [.purchased])
        #expect(relaunched.transactions.isEmpty)
        #expect(store.allTransactions().count == 1, "charged once")
    }

    @Test("Without observers, transactions wait and are reported when one is added")
    func noObserver() {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let payment = SKMutablePayment()
        payment.productIdentifier = "com.example.pro"
        queue.add(payment)
        store.runUntilIdle()
        let observer = RecordingObserver(policy: .keep)
        queue.add(observer)
        store.runUntilIdle()
        #expect(observer.events == ["updated com.example.pro:purchased"])
    }
}
