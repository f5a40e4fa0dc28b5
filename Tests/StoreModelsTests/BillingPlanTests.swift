import Foundation
import StoreModels
import Testing

@Suite("Billing plans in the catalog's model: defaults, and catalogs stored before them")
struct BillingPlanModelTests {
    @Test("A monthly plan commits to twelve monthly prices unless told; up front, to the period's price")
    func commitmentPrice() {
        #expect(BillingPlan(kind: .monthly, price: 5).commitmentPrice == 60)
        #expect(BillingPlan(kind: .monthly, price: 5, commitmentPrice: 55).commitmentPrice == 55)
        #expect(BillingPlan(kind: .upFront, price: 59).commitmentPrice == 59)
        #expect(BillingPlan(kind: .monthly, price: 5).totalBillingPeriods == 12)
        #expect(BillingPlan(kind: .upFront, price: 59).totalBillingPeriods == 1)
        let year = SubscriptionPeriod(value: 1, unit: .year)
        #expect(
            BillingPlan(kind: .monthly, price: 5).billingPeriod(of: year) == SubscriptionPeriod(value: 1, unit: .month))
        #expect(BillingPlan(kind: .upFront, price: 59).billingPeriod(of: year) == year)
    }

    @Test("Subscription information stored without billingPlans decodes with none, and offers one plan up front")
    func storedWithoutPlans() throws {
        let json = #"{"groupID":"G","groupLevel":1,"period":{"value":1,"unit":"year"},"promotionalOffers":[]}"#
        let info = try JSONDecoder().decode(SubscriptionInfo.self, from: Data(json.utf8))
        #expect(info.billingPlans.isEmpty)
        #expect(info.plans(price: 59) == [BillingPlan(kind: .upFront, price: 59)])
        #expect(info.plan(.monthly, price: 59) == nil)
        let planned = SubscriptionInfo(
            groupID: "G", groupLevel: 1, period: SubscriptionPeriod(value: 1, unit: .year),
            billingPlans: [BillingPlan(kind: .monthly, price: 5)])
        let decoded = try JSONDecoder().decode(SubscriptionInfo.self, from: JSONEncoder().encode(planned))
        #expect(decoded == planned)
        #expect(decoded.plan(.upFront, price: 59) == nil, "configured plans replace the implicit up-front one")
    }

    @Test("A payment request and a record stored before billing plans decode without one")
    func storedRequestAndRecord() throws {
        let request = try JSONDecoder().decode(
            PaymentRequest.self,
            from: Data(#"{"productID":"p","quantity":1,"simulatesAskToBuy":false,"hasRequestData":false}"#.utf8))
        #expect(request.billingPlan == nil)
        let record = TransactionRecord(
            id: 1, account: "a", productID: "p", productType: .autoRenewableSubscription, quantity: 1,
            state: .purchased, purchaseDate: Date(timeIntervalSince1970: 0))
        #expect(record.billingPlan == nil && record.commitment == nil)
    }
}
