import Foundation
import StoreModels
import TestSupport
import Testing

@testable import StoreSimulator

@Suite("A purchase made outside the app under a billing plan")
struct BillingPlanPurchaseTests {
    static func configuration() throws -> StoreConfiguration {
        try StoreConfiguration(data: BillingPlanFixture.data, sourceName: "Plans.storekit")
    }

    @Test("Bought monthly two months ago, it renewed twice in its commitment, and a reopened store shows the same")
    func datedMonthlyPurchaseReopens() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        var store = try SimulatedStore(statePath: path, configuration: try Self.configuration(), lane: .manual)
        let start = SubscriptionPeriod(value: -2, unit: .month).advance(store.now).addingTimeInterval(-3600)
        try store.buyProduct(
            BillingPlanFixture.annual, options: TestPurchaseOptions(purchaseDate: start, billingPlan: .monthly))
        let before = store.transactions()
        #expect(before.map(\.billingPlan) == [.monthly, .monthly, .monthly])
        #expect(before.map { $0.commitment?.billingPeriodNumber } == [1, 2, 3])
        #expect(before.allSatisfy { !$0.isTrialPeriod && !$0.isInIntroOfferPeriod })
        try store.close()
        store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(store.transactions() == before)
    }

    @Test("A plan the product lacks is refused and buys nothing")
    func refusals() throws {
        let store = SimulatedStore(configuration: try Self.configuration(), lane: .manual)
        #expect(throws: StoreSimulatorError.self) {
            try store.buyProduct(BillingPlanFixture.monthly, options: TestPurchaseOptions(billingPlan: .monthly))
        }
        #expect(store.transactions().isEmpty)
    }
}
