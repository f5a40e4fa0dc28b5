import Foundation
import OpenStoreKit2
import OpenStoreKitTest
import StoreSimulator
import TestSupport
import Testing

@Suite("Product: looking products up", .timeLimit(.minutes(1)))
struct ProductTests {
    @Test(
        "products(for:) takes any collection: the known products once each, in the order asked, unknown ones left out")
    func productsForAnyCollection() async throws {
        let store = SimulatedStore(lane: .manual)
        try await StoreKitEnvironment.withStore(store) {
            let asked = ["com.example.pro", "com.example.nothing", "com.example.coins100", "com.example.pro"]
            let products = try await Product.products(for: asked)
            #expect(products.map(\.id) == ["com.example.pro", "com.example.coins100"])
            let fromSet = try await Product.products(for: Set(["com.example.pro"]))
            #expect(fromSet.map(\.id) == ["com.example.pro"])
            let names = ["com.example.premium.monthly": "Monthly"]
            let fromKeys = try await Product.products(for: names.keys)
            #expect(fromKeys.map(\.id) == ["com.example.premium.monthly"])
        }
    }

    @Test("A product shows its type, price in the storefront's currency and subscription")
    func productValues() async throws {
        let store = SimulatedStore(lane: .manual)
        try await StoreKitEnvironment.withStore(store) {
            let products = try await Product.products(for: ["com.example.pro", "com.example.premium.monthly"])
            let pro = try #require(products.first)
            #expect(pro.type == .nonConsumable)
            #expect(pro.subscription == nil)
            #expect(pro.displayPrice.contains("$"))
            let monthly = try #require(products.last)
            #expect(monthly.type == .autoRenewable)
            let subscription = try #require(monthly.subscription)
            #expect(subscription.subscriptionPeriod.unit == .month)
            #expect(subscription.subscriptionPeriod.value == 1)
            #expect(await subscription.isEligibleForIntroOffer)
            switch monthly.type {
            case .autoRenewable: break
            default: Issue.record("a switch over product types matched \(monthly.type.rawValue)")
            }
        }
    }

    @Test("A simulated loadProducts failure is thrown, and cleared with nil")
    func simulatedLoadFailure() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await session.setSimulatedError(.generic(.notAvailableInStorefront), forAPI: .loadProducts)
        #expect(await session.simulatedError(forAPI: .loadProducts) == .generic(.notAvailableInStorefront))
        try await StoreKitEnvironment.withStore(store) {
            await #expect(throws: StoreKitError.self) { _ = try await Product.products(for: ["com.example.pro"]) }
            try await session.setSimulatedError(nil, forAPI: StoreKitLoadProductsAPI())
            #expect(try await Product.products(for: ["com.example.pro"]).count == 1)
        }
    }

    @Test("Two stores bound in parallel tasks never see each other's catalogs")
    func bindingsAreIsolated() async throws {
        let first = SimulatedStore(lane: .manual)
        let second = SimulatedStore(
            configuration: StoreConfiguration(catalog: StoreCatalog(products: [])), lane: .manual)
        async let fromFirst = StoreKitEnvironment.withStore(first) {
            try await Product.products(for: ["com.example.pro"]).map(\.id)
        }
        async let fromSecond = StoreKitEnvironment.withStore(second) {
            try await Product.products(for: ["com.example.pro"]).map(\.id)
        }
        #expect(try await fromFirst == ["com.example.pro"])
        #expect(try await fromSecond == [])
        #expect(StoreKitEnvironment.store === SimulatedStore.default)
    }
}
