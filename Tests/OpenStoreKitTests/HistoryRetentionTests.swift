import Foundation
import OpenStoreKit
import StoreModels
import StoreSimulator
import Testing

private func payment(_ productID: String) -> SKMutablePayment {
    let payment = SKMutablePayment()
    payment.productIdentifier = productID
    return payment
}

@Suite("History retention and batches")
struct HistoryRetentionTests {
    @Test("With receiptOnly a consumable stays in the history until finished, then leaves it")
    func consumableLeavesWhenFinished() throws {
        let store = SimulatedStore(lane: .manual, retention: .receiptOnly)
        let queue = SKPaymentQueue(store: store)
        let observer = RecordingObserver(policy: .keep)
        queue.add(observer)
        queue.add(payment("com.example.coins100"))
        store.runUntilIdle()
        let transaction = try #require(queue.transactions.first)
        #expect(transaction.transactionState == .purchased)
        #expect(store.transaction(transaction.storeIdentifier)?.productID == "com.example.coins100")
        queue.finishTransaction(transaction)
        store.runUntilIdle()
        #expect(store.transaction(transaction.storeIdentifier) == nil)
        #expect(store.allTransactions().isEmpty)
        #expect(observer.events.last == "removed com.example.coins100")
    }

    @Test("With receiptOnly finished failures leave the history; non-consumables and subscriptions stay")
    func whatStays() throws {
        let store = SimulatedStore(lane: .manual, retention: .receiptOnly)
        let queue = SKPaymentQueue(store: store)
        let observer = RecordingObserver()
        queue.add(observer)
        store.script(.fail(StoreFailure(.paymentCancelled, "cancelled")), forProduct: "com.example.coins100")
        for product in ["com.example.coins100", "com.example.pro", "com.example.premium.monthly"] {
            queue.add(payment(product))
        }
        store.runUntilIdle()
        #expect(queue.transactions.isEmpty)
        #expect(store.allTransactions().map(\.productID) == ["com.example.pro", "com.example.premium.monthly"])
        #expect(observer.events.filter { $0.hasPrefix("removed") }.count == 3)
    }

    @Test("With all, finished consumables and failures stay in the history")
    func allKeepsEverything() {
        let store = SimulatedStore(lane: .manual, retention: .all)
        let queue = SKPaymentQueue(store: store)
        let observer = RecordingObserver()
        queue.add(observer)
        store.script(.fail(StoreFailure(.paymentCancelled, "cancelled")))
        queue.add(payment("com.example.coins100"))
        queue.add(payment("com.example.coins100"))
        store.runUntilIdle()
        #expect(queue.transactions.isEmpty)
        #expect(store.allTransactions().map(\.state) == [.failed, .purchased])
        #expect(observer.events.filter { $0.hasPrefix("removed") }.count == 2)
    }

    @Test("A consumable bought elsewhere reaches every device; its record stays until the last one finishes it")
    func sharedConsumable() throws {
        let store = SimulatedStore(lane: .manual, retention: .receiptOnly)
        let phone = SKPaymentQueue(store: store, deviceID: "phone")
        let tablet = SKPaymentQueue(store: store, deviceID: "tablet")
        let phoneObserver = RecordingObserver(policy: .keep)
        let tabletObserver = RecordingObserver(policy: .keep)
        phone.add(phoneObserver)
        tablet.add(tabletObserver)
        let record = try store.buyProduct("com.example.coins100")
        store.runUntilIdle()
        let onPhone = try #require(phone.transactions.first)
        let onTablet = try #require(tablet.transactions.first)
        #expect(onPhone.transactionState == .purchased)
        #expect(onTablet.transactionState == .purchased)

        phone.finishTransaction(onPhone)
        store.runUntilIdle()
        #expect(phone.transactions.isEmpty)
        #expect(store.transaction(record.id) != nil, "the tablet has not finished it")

        tablet.finishTransaction(onTablet)
        store.runUntilIdle()
        #expect(tablet.transactions.isEmpty)
        #expect(store.transaction(record.id) == nil)
        #expect(phoneObserver.events.last == "removed com.example.coins100")
        #expect(tabletObserver.events.last == "removed com.example.coins100")
    }

    @Test("A batch finished in reverse order is removed in that order, and nothing is left")
    func batchFinishedInReverse() throws {
        let store = SimulatedStore(lane: .manual, retention: .receiptOnly)
        let queue = SKPaymentQueue(store: store)
        let observer = RecordingObserver(policy: .keep)
        queue.add(observer)
        for index in 0..<300 { queue.add(payment(index % 3 == 0 ? "com.example.pro" : "com.example.coins100")) }
        store.runUntilIdle()
        let transactions = queue.transactions
        #expect(transactions.count == 300)
        #expect(transactions.allSatisfy { $0.transactionState == .purchased })
        #expect(store.unfinishedTransactions(deviceID: queue.deviceID).map(\.id) == transactions.map(\.storeIdentifier))

        for transaction in transactions.reversed() { queue.finishTransaction(transaction) }
        store.runUntilIdle()
        #expect(queue.transactions.isEmpty)
        #expect(store.unfinishedTransactions(deviceID: queue.deviceID).isEmpty)
        let removed = observer.events.filter { $0.hasPrefix("removed") }
        let expected = transactions.reversed().map { "removed " + $0.payment.productIdentifier }
        #expect(removed == expected)
        #expect(store.allTransactions().count == 1, "one record grants the non-consumable; every consumable left")
    }

    @Test("Finishing from the middle of a batch leaves the others in arrival order")
    func finishFromTheMiddle() throws {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let observer = RecordingObserver(policy: .keep)
        queue.add(observer)
        for _ in 0..<10 { queue.add(payment("com.example.coins100")) }
        store.runUntilIdle()
        let all = queue.transactions
        for index in [4, 0, 9, 5] { queue.finishTransaction(all[index]) }
        store.runUntilIdle()
        let left = [1, 2, 3, 6, 7, 8].map { all[$0].storeIdentifier }
        #expect(queue.transactions.map(\.storeIdentifier) == left)
        #expect(store.unfinishedTransactions(deviceID: queue.deviceID).map(\.id) == left)
        queue.add(payment("com.example.coins100"))
        store.runUntilIdle()
        #expect(queue.transactions.count == 7)
        #expect(queue.transactions.last?.transactionState == .purchased)
        #expect(observer.events.filter { $0.hasPrefix("removed") }.count == 4)
    }
}
