import Foundation
import OpenStoreKit
import OpenStoreKit2
import OpenStoreKitTest
import StoreModels
import StoreSimulator
import TestSupport
import Testing

@Suite("Product.purchase: outcomes other than a purchase", .timeLimit(.minutes(1)))
struct PurchaseOutcomeTests {
    @Test("Ask to Buy (simulatesAskToBuyInSandbox) comes back .pending; the transaction waits, deferred, in the queue")
    func askToBuyIsPending() async throws {
        let store = SimulatedStore(lane: .manual)
        try await StoreKitEnvironment.withStore(store) {
            let result = try await product("com.example.pro").purchase(options: [.simulatesAskToBuyInSandbox(true)])
            guard case .pending = result else {
                Issue.record("expected .pending, got \(result)")
                return
            }
            let waiting = store.unfinishedTransactions(deviceID: StoreKitEnvironment.deviceID)
            #expect(waiting.map(\.state) == [.deferred])
        }
    }

    @Test("A cancelled purchase comes back .userCancelled and leaves nothing in the device's queue")
    func cancelled() async throws {
        let store = SimulatedStore(lane: .manual)
        store.script(.fail(StoreFailure(.paymentCancelled, "the customer cancelled")))
        try await StoreKitEnvironment.withStore(store) {
            let result = try await product("com.example.pro").purchase()
            guard case .userCancelled = result else {
                Issue.record("expected .userCancelled, got \(result)")
                return
            }
            #expect(store.unfinishedTransactions(deviceID: StoreKitEnvironment.deviceID).isEmpty)
        }
    }

    @Test("A failed purchase throws StoreKit 2's error for the store's reason")
    func failures() async throws {
        let store = SimulatedStore(lane: .manual)
        try await StoreKitEnvironment.withStore(store) {
            let pro = try await product("com.example.pro")
            store.updateSettings { $0.paymentsAllowed = false }
            await #expect(throws: Product.PurchaseError.purchaseNotAllowed) { _ = try await pro.purchase() }
            store.updateSettings { $0.paymentsAllowed = true }
            await #expect(throws: Product.PurchaseError.invalidQuantity) {
                _ = try await pro.purchase(options: [.quantity(11)])
            }
            let monthly = try await product("com.example.premium.monthly")
            let offer = Product.PurchaseOption.promotionalOffer(
                offerID: "no-such-offer", keyID: "KEY", nonce: UUID(), signature: Data([1, 2, 3]),
                timestamp: 1_700_000_000_000)
            await #expect(throws: Product.PurchaseError.invalidOfferIdentifier) {
                _ = try await monthly.purchase(options: [offer])
            }
            #expect(store.unfinishedTransactions(deviceID: StoreKitEnvironment.deviceID).isEmpty)
        }
    }

    @Test("A simulated purchase failure is thrown before anything reaches the store, for every kind of failure")
    func simulatedPurchaseFailure() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            let pro = try await product("com.example.pro")
            try await session.setSimulatedError(.purchase(.productUnavailable), forAPI: .purchase)
            await #expect(throws: Product.PurchaseError.productUnavailable) { _ = try await pro.purchase() }
            try await session.setSimulatedError(.generic(.notEntitled), forAPI: .purchase)
            #expect(await session.simulatedError(forAPI: .purchase) == .generic(.notEntitled))
            await #expect(throws: StoreKitError.self) { _ = try await pro.purchase() }
            #expect(store.allTransactions().isEmpty)
            try await session.setSimulatedError(nil, forAPI: .purchase)
            #expect(await session.simulatedError(forAPI: .purchase) == nil)
        }
    }

    @Test(
        "A purchase failure cleared with setSimulatedError(nil, forAPI: .purchase), whichever overload Swift picks, is gone"
    )
    func clearingAPurchaseFailure() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            let pro = try await product("com.example.pro")
            // Apple's sample, from asynchronous code: StoreKit 2's overload.
            try await session.setSimulatedError(.generic(.unknown), forAPI: .purchase)
            await #expect(throws: StoreKitError.self) { _ = try await pro.purchase() }
            try await session.setSimulatedError(nil, forAPI: .purchase)
            try await Self.expectPurchase(of: pro)
            // The same words from synchronous code: StoreKit 1's overload.
            try await session.setSimulatedError(.generic(.unknown), forAPI: .purchase)
            await #expect(throws: StoreKitError.self) { _ = try await pro.purchase() }
            Self.storeKit1(session) { $0.setSimulatedError(nil, forAPI: .purchase) }
            #expect(await session.simulatedError(forAPI: StoreKitPurchaseAPI()) == nil)
            try await Self.expectPurchase(of: pro)
        }
    }

    /// Buys a product and expects a verified transaction of it.
    private static func expectPurchase(of product: Product) async throws {
        let result = try await product.purchase()
        guard case .success(.verified(let transaction)) = result else {
            Issue.record("expected a verified purchase, got \(result)")
            return
        }
        #expect(transaction.productID == product.id)
    }

    @Test("A failure set through either setSimulatedError is the store's one failure, read and cleared through both")
    func oneStoreOfSimulatedErrors() async throws {
        let session = SKTestSession(store: SimulatedStore(lane: .manual))
        try await session.setSimulatedError(.purchase(.productUnavailable), forAPI: StoreKitPurchaseAPI())
        #expect(session.simulatedError(forAPI: .purchase)?.code == .storeProductNotAvailable)
        Self.storeKit1(session) { $0.setSimulatedError(SKError(.paymentNotAllowed), forAPI: .restore) }
        #expect(await session.simulatedError(forAPI: StoreKitAppStoreSyncAPI()) != nil)
        try await session.setSimulatedError(nil, forAPI: StoreKitAppStoreSyncAPI())
        #expect(session.simulatedError(forAPI: .restore) == nil)
        Self.storeKit1(session) { $0.setSimulatedError(nil, forAPI: .purchase) }
        #expect(await session.simulatedError(forAPI: StoreKitPurchaseAPI()) == nil)
    }

    /// Calls StoreKit 1's overloads: from synchronous code Swift picks them over StoreKit 2's asynchronous ones.
    private static func storeKit1(_ session: SKTestSession, _ body: (SKTestSession) -> Void) { body(session) }

    @Test("Every StoreKit 2 API StoreKit Test can fail is settable and readable back")
    func everyFailableAPI() async throws {
        let session = SKTestSession(store: SimulatedStore(lane: .manual))
        try await session.setSimulatedError(.generic(.unknown), forAPI: .loadProducts)
        try await session.setSimulatedError(.purchase(.invalidOfferPrice), forAPI: .purchase)
        try await session.setSimulatedError(.verification(.invalidSignature), forAPI: .verification)
        try await session.setSimulatedError(.generic(.unknown), forAPI: .appStoreSync)
        try await session.setSimulatedError(.generic(.unknown), forAPI: .subscriptionStatus)
        try await session.setSimulatedError(.generic(.unknown), forAPI: .appTransaction)
        try await session.setSimulatedError(.generic(.unknown), forAPI: .manageSubscriptions)
        try await session.setSimulatedError(.refundRequest(.failed), forAPI: .refundRequest)
        try await session.setSimulatedError(.generic(.userCancelled), forAPI: .offerCodeRedeem)
        #expect(await session.simulatedError(forAPI: .loadProducts) == .generic(.unknown))
        #expect(await session.simulatedError(forAPI: .purchase) == .purchase(.invalidOfferPrice))
        #expect(await session.simulatedError(forAPI: .verification) == .verification(.invalidSignature))
        #expect(await session.simulatedError(forAPI: .appStoreSync) == .generic(.unknown))
        #expect(await session.simulatedError(forAPI: .subscriptionStatus) == .generic(.unknown))
        #expect(await session.simulatedError(forAPI: .appTransaction) == .generic(.unknown))
        #expect(await session.simulatedError(forAPI: .manageSubscriptions) == .generic(.unknown))
        #expect(await session.simulatedError(forAPI: .refundRequest) == .refundRequest(.failed))
        #expect(await session.simulatedError(forAPI: .offerCodeRedeem) == .generic(.userCancelled))
        await StoreKitEnvironment.withStore(session.store) {
            await #expect(throws: StoreKitError.self) { try await AppStore.sync() }
            await #expect(throws: StoreKitError.self) { _ = try await AppTransaction.shared }
            await #expect(throws: StoreKitError.self) {
                _ = try await Product.SubscriptionInfo.status(for: "premium")
            }
        }
        try await session.setSimulatedError(nil, forAPI: .appStoreSync)
        #expect(await session.simulatedError(forAPI: .appStoreSync) == nil)
    }
}
