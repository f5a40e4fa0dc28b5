import StoreKit
import StoreKitTest
import Testing

/// Commitment plans used as iOS code uses them, over a `.storekit` file (format 5) written for this test.
@Suite("Monthly billing with a twelve-month commitment as an app offers and buys it", .timeLimit(.minutes(1)))
struct CommitmentPlansTests {
    static let configuration = """
        { "version" : { "major" : 5, "minor" : 0 }, "settings" : { "_storefront" : "USA", "_locale" : "en_US" },
          "subscriptionGroups" : [ { "id" : "G1", "name" : "Pro", "subscriptions" : [ {
            "productID" : "com.example.pro.yearly", "type" : "RecurringSubscription", "displayPrice" : "59.99",
            "recurringSubscriptionPeriod" : "P1Y", "subscriptionGroupID" : "G1", "groupNumber" : 1,
            "billingPlans" : [
              { "billingPlanType" : "BILLED_UPFRONT", "displayPrice" : "59.99", "commitmentDisplayPrice" : "59.99",
                "internalID" : "1", "isEnabled" : true },
              { "billingPlanType" : "MONTHLY", "displayPrice" : "5.99", "commitmentDisplayPrice" : "71.88",
                "internalID" : "2", "isEnabled" : true } ] } ] } ] }
        """

    @Test("the paywall shows both plans, and buying monthly gives payment 1 of 12 with the commitment's end")
    func buyMonthly() async throws {
        let session = try makeTestSession(Self.configuration, label: "CommitmentPlansTests")
        try await StoreKitEnvironment.withStore(session.store) {
            let pro = try #require(try await Product.products(for: ["com.example.pro.yearly"]).first)
            #expect(
                CommitmentPlans.choices(for: pro) == [
                    .init(plan: .upFront, label: "$59.99/year"),
                    .init(plan: .monthly, label: "$5.99/month, $71.88 over 12 months"),
                ])
            #expect(CommitmentPlans.billingPrices(for: pro) == [Decimal(string: "59.99")!, Decimal(string: "5.99")!])
            let transaction = try #require(try await CommitmentPlans.purchase(pro, plan: .monthly))
            #expect(CommitmentPlans.progress(of: transaction) == "Payment 1 of 12")
            #expect(transaction.price == Decimal(string: "5.99"))
            #expect(!CommitmentPlans.isAdvancedCommerce(transaction))
            let end = try #require(try await CommitmentPlans.commitmentEnd(of: pro))
            #expect(end == transaction.commitmentInfo?.expirationDate)
            #expect(end > transaction.expirationDate ?? .distantFuture)
        }
    }

    @Test("a test buys the monthly plan outside the app, as on another device, and the app sees payment 1 of 12")
    func buyMonthlyOutsideTheApp() async throws {
        let session = try makeTestSession(Self.configuration, label: "CommitmentPlansTests.outside")
        try await StoreKitEnvironment.withStore(session.store) {
            let bought = try await session.buyProduct(
                identifier: "com.example.pro.yearly", options: [.billingPlanType(.monthly)])
            #expect(CommitmentPlans.progress(of: bought) == "Payment 1 of 12")
            #expect(bought.price == Decimal(string: "5.99"))
            let entitlement = try #require(await Transaction.latest(for: "com.example.pro.yearly"))
            #expect(CommitmentPlans.progress(of: try entitlement.payloadValue) == "Payment 1 of 12")
        }
    }
}
