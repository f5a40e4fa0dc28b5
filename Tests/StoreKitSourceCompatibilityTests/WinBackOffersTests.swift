import StoreKit
import StoreKitTest
import Testing

/// Win-back offers used as iOS code uses them, over a `.storekit` file written for this test.
@Suite("Win-back offers as an app finds and redeems them", .timeLimit(.minutes(1)))
struct WinBackOffersTests {
    static let configuration = """
        { "version" : { "major" : 4, "minor" : 0 }, "settings" : { "_storefront" : "USA", "_locale" : "en_US" },
          "subscriptionGroups" : [ { "id" : "G1", "name" : "Plus", "subscriptions" : [ {
            "productID" : "com.example.plus.monthly", "type" : "RecurringSubscription", "displayPrice" : "4.99",
            "recurringSubscriptionPeriod" : "P1M", "subscriptionGroupID" : "G1", "groupNumber" : 1,
            "winbackOffers" : [ { "offerID" : "comeback", "paymentMode" : "free", "subscriptionPeriod" : "P1M",
                                  "numberOfPeriods" : 1, "referenceName" : "A free month" } ] } ] } ] }
        """

    @Test("a customer who left is offered the win-back offer, and redeeming it gives a win-back transaction")
    func redeem() async throws {
        let session = try makeTestSession(Self.configuration, label: "WinBackOffersTests")
        try await StoreKitEnvironment.withStore(session.store) {
            let plus = try #require(try await Product.products(for: ["com.example.plus.monthly"]).first)
            #expect(plus.subscription?.winBackOffers.map(\.type) == [.winBack])
            try session.buyProduct(productIdentifier: plus.id)
            #expect(try await WinBackOffers.eligible(for: plus).isEmpty, "still subscribed")
            try session.expireSubscription(productIdentifier: plus.id)
            let offer = try #require(try await WinBackOffers.eligible(for: plus).first)
            #expect(offer.id == "comeback")
            let transaction = try #require(try await WinBackOffers.redeem(offer, of: plus))
            #expect(transaction.offer?.type == .winBack)
            #expect(transaction.offer?.id == "comeback")
            #expect(transaction.price == 0)
            #expect(try await WinBackOffers.eligible(for: plus).isEmpty, "subscribed again")
        }
    }
}
