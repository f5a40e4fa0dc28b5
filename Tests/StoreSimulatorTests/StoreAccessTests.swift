import Foundation
import StoreModels
import StoreSimulator
import Testing

private let day: TimeInterval = 86_400

private let catalog: StoreConfiguration = {
    let month = SubscriptionPeriod(value: 1, unit: .month)
    return StoreConfiguration(
        catalog: StoreCatalog(products: [
            ProductDefinition(id: "pro", type: .nonConsumable, price: 9.99),
            ProductDefinition(
                id: "basic", type: .autoRenewableSubscription, price: 4.99,
                subscription: SubscriptionInfo(groupID: "g", groupLevel: 2, period: month)),
            ProductDefinition(
                id: "plus", type: .autoRenewableSubscription, price: 9.99,
                subscription: SubscriptionInfo(groupID: "g", groupLevel: 1, period: month)),
        ])
    )
}()

@Suite("The store's access follows the shared definition")
struct StoreAccessTests {
    /// The store's own view of the group's subscription agrees with ``ProductAccess`` on whether there is access.
    private func expectAgreement(
        _ store: SimulatedStore, _ product: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let access = store.access(to: product)
        let subscription = store.subscription(groupID: "g")
        #expect(subscription?.grantsAccess == access.hasAccess, sourceLocation: sourceLocation)
    }

    @Test("Active, grace, billing retry and recovery: access while active and in grace only")
    func billingPhases() throws {
        let store = SimulatedStore(configuration: catalog, clock: ManualClock(), lane: .manual)
        store.updateSettings {
            $0.billingRetryOnRenewal = true
            $0.billingGracePeriodEnabled = true
        }
        try store.buyProduct("basic")
        #expect(store.access(to: "basic").phase == .active)
        expectAgreement(store, "basic")

        try store.advance(by: 31 * day)
        let grace = store.access(to: "basic")
        #expect(grace.phase == .grace)
        #expect(grace.hasAccess)
        #expect(grace.expiresAt == store.subscription(groupID: "g")?.gracePeriodEndsAt)
        #expect(store.billing() == ["basic": .gracePeriod(endsAt: try #require(grace.expiresAt))])
        expectAgreement(store, "basic")

        try store.advance(by: 16 * day)
        #expect(store.access(to: "basic").phase == .billingRetry)
        #expect(!store.access(to: "basic").hasAccess)
        #expect(store.billing() == ["basic": .billingRetry])
        expectAgreement(store, "basic")

        store.updateSettings { $0.billingRetryOnRenewal = false }
        try store.advance(by: 7 * day)
        #expect(store.access(to: "basic").phase == .active)
        #expect(store.billing().isEmpty)
        expectAgreement(store, "basic")
    }

    @Test("Expired, refunded and upgraded subscriptions grant nothing; the upgrade does")
    func endings() throws {
        let store = SimulatedStore(configuration: catalog, clock: ManualClock(), lane: .manual)
        try store.buyProduct("basic")
        try store.buyProduct("plus")
        #expect(store.access(to: "basic").phase == .upgraded)
        #expect(store.access(to: "plus").phase == .active)
        expectAgreement(store, "plus")

        let plus = try #require(store.transactions().last { $0.productID == "plus" })
        try store.refund(plus.id)
        #expect(store.access(to: "plus").phase == .revoked)
        expectAgreement(store, "plus")

        try store.buyProduct("plus")
        try store.expireSubscription(productID: "plus")
        #expect(store.access(to: "plus").phase == .expired)
        expectAgreement(store, "plus")
        #expect(store.access(to: "pro").phase == .none)
        try store.buyProduct("pro")
        #expect(store.access(to: "pro").phase == .active)
        #expect(store.access(to: "pro", account: "someone-else").phase == .none)
    }
}
