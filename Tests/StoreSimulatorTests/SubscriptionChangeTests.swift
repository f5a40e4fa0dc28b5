import Foundation
import StoreModels
import StoreSimulator
import Testing

private let day: TimeInterval = 86_400

/// A group with two products of the same level and duration, one of the same level and another duration, and a lower
/// level.
private let catalog: StoreConfiguration = {
    let month = SubscriptionPeriod(value: 1, unit: .month)
    return StoreConfiguration(
        catalog: StoreCatalog(products: [
            ProductDefinition(
                id: "plus.monthly", type: .autoRenewableSubscription, price: 9.99,
                subscription: SubscriptionInfo(groupID: "g", groupLevel: 1, period: month)),
            ProductDefinition(
                id: "plus.family", type: .autoRenewableSubscription, price: 14.99,
                subscription: SubscriptionInfo(groupID: "g", groupLevel: 1, period: month)),
            ProductDefinition(
                id: "plus.quarterly", type: .autoRenewableSubscription, price: 24.99,
                subscription: SubscriptionInfo(
                    groupID: "g", groupLevel: 1, period: SubscriptionPeriod(value: 3, unit: .month))),
            ProductDefinition(
                id: "basic.monthly", type: .autoRenewableSubscription, price: 4.99,
                subscription: SubscriptionInfo(groupID: "g", groupLevel: 2, period: month)),
        ])
    )
}()

@Suite("Changing plans within a subscription group")
struct SubscriptionChangeTests {
    private func store() -> SimulatedStore {
        SimulatedStore(configuration: catalog, clock: ManualClock(), lane: .manual)
    }

    /// Checks that `to` replaced `from` now: the replaced period upgraded and cancelled at the change, access moved.
    private func expectImmediateChange(
        _ store: SimulatedStore, from old: TransactionRecord, to productID: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let replaced = try #require(store.allTransactions().first { $0.id == old.id }, sourceLocation: sourceLocation)
        #expect(replaced.isUpgraded, sourceLocation: sourceLocation)
        #expect(replaced.cancellationDate == store.now, sourceLocation: sourceLocation)
        let subscription = try #require(store.subscription(groupID: "g"), sourceLocation: sourceLocation)
        #expect(subscription.productID == productID, sourceLocation: sourceLocation)
        #expect(
            subscription.originalID == old.originalID, "the same subscription goes on", sourceLocation: sourceLocation)
        #expect(store.access(to: productID).hasAccess, sourceLocation: sourceLocation)
        #expect(store.access(to: old.productID).phase == .upgraded, sourceLocation: sourceLocation)
        #expect(!store.access(to: old.productID).hasAccess, sourceLocation: sourceLocation)
    }

    @Test("A crossgrade of the same duration starts at once and ends the replaced period")
    func sameDurationCrossgradeIsImmediate() throws {
        let store = store()
        let first = try store.buyProduct("plus.monthly")
        try store.advance(by: 10 * day)
        let crossgrade = try store.buyProduct("plus.family")
        #expect(crossgrade.id != first.id, "a new period, charged now")
        #expect(crossgrade.productID == "plus.family")
        #expect(crossgrade.expirationDate == SubscriptionPeriod(value: 1, unit: .month).advance(store.now))
        try expectImmediateChange(store, from: first, to: "plus.family")
    }

    @Test("A crossgrade of another duration still waits for the next renewal")
    func otherDurationCrossgradeWaits() throws {
        let store = store()
        let first = try store.buyProduct("plus.monthly")
        let granted = try store.buyProduct("plus.quarterly")
        #expect(granted.id == first.id, "the running period still grants access")
        #expect(store.subscription(groupID: "g")?.productID == "plus.monthly")
        #expect(store.subscription(groupID: "g")?.renewalProductID == "plus.quarterly")
        #expect(store.access(to: "plus.monthly").hasAccess)
        #expect(!store.access(to: "plus.quarterly").hasAccess)
        try store.advance(by: 31 * day)
        #expect(store.subscription(groupID: "g")?.productID == "plus.quarterly")
        #expect(store.access(to: "plus.quarterly").hasAccess)
    }

    @Test("A downgrade of the same duration still waits for the next renewal")
    func downgradeWaits() throws {
        let store = store()
        let first = try store.buyProduct("plus.monthly")
        let granted = try store.buyProduct("basic.monthly")
        #expect(granted.id == first.id)
        #expect(store.access(to: "plus.monthly").hasAccess)
        #expect(store.subscription(groupID: "g")?.renewalProductID == "basic.monthly")
    }

    @Test("An interrupted crossgrade of the same duration, once resolved, starts at once like a direct one")
    func interruptedSameDurationCrossgrade() throws {
        let store = store()
        let first = try store.buyProduct("plus.monthly")
        store.updateSettings { $0.interruptedPurchasesEnabled = true }
        let (device, listener) = store.silentConnection("phone")
        device.submit(PaymentRequest(productID: "plus.family"))
        store.runUntilIdle()
        withExtendedLifetime((device, listener)) {}
        store.updateSettings { $0.interruptedPurchasesEnabled = false }
        #expect(store.subscription(groupID: "g")?.productID == "plus.monthly", "nothing changed while interrupted")
        let interrupted = try #require(store.allTransactions().last { $0.state == .failed && $0.hasPurchaseIssue })
        try store.advance(by: 3 * day)
        let resolved = try store.resolveIssue(interrupted.id)
        #expect(resolved.productID == "plus.family")
        #expect(resolved.id != first.id)
        try expectImmediateChange(store, from: first, to: "plus.family")
    }

    @Test("Periods of the same length written in other units count as the same duration")
    func sameDurationInOtherUnits() throws {
        let week = SubscriptionPeriod(value: 1, unit: .week)
        let store = SimulatedStore(
            configuration: StoreConfiguration(
                catalog: StoreCatalog(products: [
                    ProductDefinition(
                        id: "weekly", type: .autoRenewableSubscription, price: 1.99,
                        subscription: SubscriptionInfo(groupID: "g", groupLevel: 1, period: week)),
                    ProductDefinition(
                        id: "seven.days", type: .autoRenewableSubscription, price: 2.99,
                        subscription: SubscriptionInfo(
                            groupID: "g", groupLevel: 1, period: SubscriptionPeriod(value: 7, unit: .day))),
                ])),
            clock: ManualClock(), lane: .manual)
        let first = try store.buyProduct("weekly")
        try store.buyProduct("seven.days")
        try expectImmediateChange(store, from: first, to: "seven.days")
    }
}
