import StoreKit
import StoreKitTest
import Testing

/// The top-level subscription names (iOS 18.4) used as iOS code uses them, over a `.storekit` file written for this
/// test.
@Suite("Subscription names of iOS 18.4 as an app uses them", .timeLimit(.minutes(1)))
struct RenewalSummaryTests {
    static let configuration = """
        { "version" : { "major" : 4, "minor" : 0 }, "settings" : { "_storefront" : "USA", "_locale" : "en_US" },
          "subscriptionGroups" : [ { "id" : "G1", "name" : "Plus", "subscriptions" : [ {
            "productID" : "com.example.plus.yearly", "type" : "RecurringSubscription", "displayPrice" : "49.99",
            "recurringSubscriptionPeriod" : "P1Y", "subscriptionGroupID" : "G1", "groupNumber" : 1 } ] } ] }
        """

    @Test("the summary follows the subscription from never bought to subscribed to expired")
    func summary() async throws {
        let session = try makeTestSession(Self.configuration, label: "RenewalSummaryTests")
        try await StoreKitEnvironment.withStore(session.store) {
            let yearly = try #require(try await Product.products(for: ["com.example.plus.yearly"]).first)
            let subscription: SubscriptionInfo = try #require(yearly.subscription)
            #expect(try await RenewalSummary.load(for: subscription) == nil)
            try session.buyProduct(productIdentifier: yearly.id)
            let subscribed = try #require(try await RenewalSummary.load(for: subscription))
            #expect(subscribed.period.unit == .year && subscribed.period.value == 1)
            #expect(subscribed.state == .subscribed)
            #expect(subscribed.isActive)
            #expect(subscribed.willAutoRenew)
            try session.expireSubscription(productIdentifier: yearly.id)
            let expired = try #require(try await RenewalSummary.load(for: subscription))
            #expect(expired.state == .expired)
            #expect(!expired.isActive)
        }
    }
}
