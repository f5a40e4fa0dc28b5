// Tests of the iOS store class, driven with SKTestSession as on iOS. The one line iOS does not have binds StoreKit 2
// to a store of the test's own (`StoreKitEnvironment.withStore`), so these tests run in parallel with every other.
import Foundation
import Observation
import StoreKit
import StoreKitTest
import Synchronization
import Testing

@Suite("An iOS StoreKit 2 store class, unchanged, driven by SKTestSession", .timeLimit(.minutes(1)))
@MainActor
struct StoreTests {
    static let productIDs = [
        "com.example.consumable": "Coins",
        "com.example.no-ads": "No ads",
        "com.example.season-pass": "Season pass",
        "com.example.auto-renewable": "Monthly",
        "com.example.auto-renewable.yearly": "Yearly",
    ]

    /// The project's `Examples/Default.storekit`.
    nonisolated static let configuration = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Default.storekit")

    /// A session over a store of this test's own, whose callbacks run on a queue of their own.
    func makeSession() throws -> SKTestSession {
        let store = SimulatedStore(lane: .dispatch(DispatchQueue(label: "StoreTests")))
        let session = try SKTestSession(contentsOf: Self.configuration, store: store)
        session.disableDialogs = true
        session.timeRate = .realTime  // Apple's spelling of the rate, through `import StoreKitTest` alone
        session.clearTransactions()
        return session
    }

    /// Waits for the store's work to be done and for its listener to have delivered `count` transactions, yielding
    /// to the listener a bounded number of times.
    func waitForListener(_ store: Store, count: Int, session: SKTestSession) async {
        await session.store.idle()
        for _ in 0..<10_000 where store.deliveredByListener.count < count {
            await Task.yield()
        }
    }

    @Test("Products by identifier, sorted into their kinds")
    func products() async throws {
        let session = try makeSession()
        try await StoreKitEnvironment.withStore(session.store) {
            let store = Store(productIDs: Self.productIDs)
            defer { store.stopListening() }
            try await store.requestProducts()
            #expect(store.consumables.map(\.id) == ["com.example.consumable"])
            #expect(store.nonConsumables.map(\.id) == ["com.example.no-ads"])
            #expect(store.nonRenewables.map(\.id) == ["com.example.season-pass"])
            #expect(
                store.subscriptions.map(\.id) == ["com.example.auto-renewable", "com.example.auto-renewable.yearly"])
        }
    }

    @Test("A purchase is verified, delivered, finished, and becomes a current entitlement")
    func purchase() async throws {
        let session = try makeSession()
        try await StoreKitEnvironment.withStore(session.store) {
            let store = Store(productIDs: Self.productIDs)
            defer { store.stopListening() }
            try await store.requestProducts()
            let noAds = try #require(store.nonConsumables.first)
            #expect(try await store.isPurchased(noAds) == false)
            let transaction = try #require(try await store.purchase(noAds))
            #expect(transaction.productID == "com.example.no-ads")
            #expect(try await store.isPurchased(noAds))
            var unfinished: [Transaction] = []
            for await result in Transaction.unfinished { unfinished.append(try store.checkVerified(result)) }
            #expect(unfinished.isEmpty)
        }
    }

    @Test("The store is observable: a purchase tells whoever tracks the purchased products")
    func observation() async throws {
        let session = try makeSession()
        try await StoreKitEnvironment.withStore(session.store) {
            let store = Store(productIDs: Self.productIDs)
            defer { store.stopListening() }
            try await store.requestProducts()
            let noAds = try #require(store.nonConsumables.first)
            let changes = ChangeCount()
            withObservationTracking {
                _ = store.purchasedNonConsumables
            } onChange: {
                changes.add()
            }
            #expect(changes.value == 0)
            _ = try #require(try await store.purchase(noAds))
            #expect(changes.value == 1)
            #expect(store.purchasedNonConsumables.map(\.id) == ["com.example.no-ads"])
        }
    }

    @Test("A subscription shows its status, and its renewal arrives through the updates listener")
    func subscription() async throws {
        let session = try makeSession()
        try await StoreKitEnvironment.withStore(session.store) {
            let store = Store(productIDs: Self.productIDs)
            defer { store.stopListening() }
            try await store.requestProducts()
            let monthly = try #require(store.subscriptions.first)
            _ = try #require(try await store.purchase(monthly))
            #expect(store.subscriptionGroupStatus == .subscribed)
            #expect(try await store.isPurchased(monthly))
            let renewalInfo = try #require(try await store.latestRenewalInfo(for: monthly))
            #expect(renewalInfo.willAutoRenew)
            try session.forceRenewalOfSubscription(productIdentifier: monthly.id)
            await waitForListener(store, count: 1, session: session)
            #expect(store.deliveredByListener == ["com.example.auto-renewable"])
            try session.expireSubscription(productIdentifier: monthly.id)
            await store.updateCustomerProductStatus()
            #expect(store.subscriptionGroupStatus == .expired)
            #expect(try await store.isPurchased(monthly) == false)
        }
    }

    @Test("Restoring syncs with the App Store and reads the entitlements again; a sync failure is thrown")
    func restore() async throws {
        let session = try makeSession()
        try await StoreKitEnvironment.withStore(session.store) {
            let store = Store(productIDs: Self.productIDs)
            defer { store.stopListening() }
            try await store.requestProducts()
            let seasonPass = try #require(store.nonRenewables.first)
            #expect(store.emoji(for: seasonPass.id) == "Season pass")
            _ = try #require(try await store.purchase(seasonPass))
            try await store.restorePurchases()
            #expect(try await store.isPurchased(seasonPass))
            try await session.setSimulatedError(
                .generic(.networkError(URLError(.notConnectedToInternet))), forAPI: .appStoreSync)
            await #expect(throws: StoreKitError.self) { try await store.restorePurchases() }
        }
    }

    @Test("A purchase made outside the app reaches the listener once, and the store delivers it")
    func purchaseOutsideTheApp() async throws {
        let session = try makeSession()
        try await StoreKitEnvironment.withStore(session.store) {
            let store = Store(productIDs: Self.productIDs)
            defer { store.stopListening() }
            try await store.requestProducts()
            try await session.buyProduct(identifier: "com.example.no-ads")
            await waitForListener(store, count: 1, session: session)
            #expect(store.deliveredByListener == ["com.example.no-ads"])
            #expect(try await store.isPurchased(try #require(store.nonConsumables.first)))
        }
    }
}

/// How many times an observation's `onChange` ran.
private final class ChangeCount: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    func add() { count.withLock { $0 += 1 } }
}
