import Foundation
import OpenStoreKit
import StoreModels
import StoreSimulator
import Testing

@Suite("Family Sharing through the payment queue")
struct FamilySharingTests {
    @Test("A member restores what the family shared, and hears it revoked when the purchaser is refunded")
    func memberRestoresAndHearsRevocation() throws {
        let store = SimulatedStore(lane: .manual)
        try store.joinFamily("smiths", account: "alice")
        try store.joinFamily("smiths", account: "bob")
        let queue = SKPaymentQueue(store: store, deviceID: "bobs-phone", account: "bob")
        let observer = RecordingObserver()
        queue.add(observer)
        let bought = try store.buyProduct("com.example.pro", account: "alice")
        store.runUntilIdle()
        #expect(observer.updateBatches.isEmpty, "a shared purchase is not in StoreKit 1's queue")
        queue.restoreCompletedTransactions()
        store.runUntilIdle()
        let restored = observer.updateBatches.flatMap { $0 }.filter { $0.transactionState == .restored }
        #expect(restored.map(\.productIdentifier) == ["com.example.pro"])
        let shared = try #require(store.transactions(of: "bob").first)
        #expect(restored.first?.object.original?.transactionIdentifier == String(shared.id))
        try store.refund(bought.id)
        store.runUntilIdle()
        #expect(observer.revocations == [["com.example.pro"]])
    }
}
