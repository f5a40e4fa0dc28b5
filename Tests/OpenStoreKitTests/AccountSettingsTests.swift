import Foundation
import OpenStoreKit
import StoreModels
import StoreSimulator
import Testing

private func buy(_ queue: SKPaymentQueue, _ product: String) {
    let payment = SKMutablePayment()
    payment.productIdentifier = product
    queue.add(payment)
}

@Suite("Settings of an account")
struct AccountSettingsTests {
    @Test("A child's account that may not pay: its device says so and fails purchases; other accounts go on")
    func paymentsPerAccount() throws {
        let store = SimulatedStore(lane: .manual)
        let parent = SKPaymentQueue(store: store, deviceID: "parent", account: "parent")
        let child = SKPaymentQueue(store: store, deviceID: "child", account: "child")
        let parentObserver = RecordingObserver()
        let childObserver = RecordingObserver()
        parent.add(parentObserver)
        child.add(childObserver)
        store.updateAccountSettings("child") { $0.paymentsAllowed = false }
        #expect(!child.canMakePayments())
        #expect(parent.canMakePayments())
        buy(child, "com.example.pro")
        buy(parent, "com.example.pro")
        store.runUntilIdle()
        #expect(childObserver.updateBatches.last?.first?.errorCode == .paymentNotAllowed)
        #expect(parentObserver.states(of: "com.example.pro") == [.purchasing, .purchased])

        child.restoreCompletedTransactions()
        store.runUntilIdle()
        #expect(childObserver.events.last == "restoreFailed \(SKError.Code.paymentNotAllowed.rawValue)")
    }

    @Test("An account's own setting wins over the store-wide one, and nil follows it again")
    func overrideAndFollow() {
        let store = SimulatedStore(lane: .manual)
        store.updateSettings { $0.paymentsAllowed = false }
        store.updateAccountSettings("child") { $0.paymentsAllowed = true }
        let child = SKPaymentQueue(store: store, deviceID: "child", account: "child")
        let other = SKPaymentQueue(store: store, deviceID: "other", account: "other")
        #expect(child.canMakePayments())
        #expect(!other.canMakePayments())
        store.updateAccountSettings("child") { $0.paymentsAllowed = nil }
        #expect(!child.canMakePayments())
        #expect(store.accountSettings("child") == AccountSettings())
        store.resetSettings()
        #expect(child.canMakePayments())
    }

    @Test("Ask to Buy on one account defers its purchases only; off on an account beats the store-wide setting")
    func askToBuyPerAccount() {
        let store = SimulatedStore(lane: .manual)
        let child = SKPaymentQueue(store: store, deviceID: "child", account: "child")
        let parent = SKPaymentQueue(store: store, deviceID: "parent", account: "parent")
        let childObserver = RecordingObserver()
        let parentObserver = RecordingObserver()
        child.add(childObserver)
        parent.add(parentObserver)
        store.updateAccountSettings("child") { $0.askToBuyEnabled = true }
        buy(child, "com.example.pro")
        buy(parent, "com.example.pro")
        store.runUntilIdle()
        #expect(childObserver.states(of: "com.example.pro") == [.purchasing, .deferred])
        #expect(parentObserver.states(of: "com.example.pro") == [.purchasing, .purchased])

        store.updateSettings { $0.askToBuyEnabled = true }
        store.updateAccountSettings("parent") { $0.askToBuyEnabled = false }
        buy(parent, "com.example.coins100")
        store.runUntilIdle()
        #expect(parentObserver.states(of: "com.example.coins100") == [.purchasing, .purchased])
    }
}
