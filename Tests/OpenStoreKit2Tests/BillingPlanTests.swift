import Foundation
import OpenStoreKit2
import StoreModels
import StoreSimulator
import TestSupport
import Testing

@Suite("StoreKit 2's billing plans: pricing terms, the billingPlanType purchase option, the commitment signed")
struct BillingPlanPurchaseTests {
    static let annual = BillingPlanFixture.annual

    static func store() throws -> SimulatedStore {
        let configuration = try StoreConfiguration(data: BillingPlanFixture.data, sourceName: "Plans.storekit")
        return SimulatedStore(configuration: configuration, lane: .manual)
    }

    static func months(_ count: Int, after date: Date) -> Date {
        StoreModels.SubscriptionPeriod(value: count, unit: .month).advance(date)
    }

    @Test("pricingTerms has one terms per billing plan, with the catalog's prices, periods and commitment")
    func pricingTerms() async throws {
        try await StoreKitEnvironment.withStore(try Self.store()) {
            let info = try #require(try await product(Self.annual).subscription)
            #expect(info.pricingTerms.map(\.billingPlanType) == [.upFront, .monthly])
            let upFront = info.pricingTerms[0]
            #expect(upFront.billingPrice == Decimal(string: "119.99"))
            #expect(upFront.billingDisplayPrice == "$119.99")
            #expect(upFront.billingPeriod.unit == .year && upFront.billingPeriod.value == 1)
            #expect(upFront.subscriptionOffers.map(\.type) == [.introductory])
            #expect(upFront[offers: .introductory].count == 1)
            let monthly = info.pricingTerms[1]
            #expect(monthly.billingPrice == Decimal(string: "9.99"))
            #expect(monthly.billingDisplayPrice == "$9.99")
            #expect(monthly.billingPeriod.unit == .month && monthly.billingPeriod.value == 1)
            #expect(monthly.commitmentInfo.price == Decimal(string: "119.88"))
            #expect(monthly.commitmentInfo.displayPrice == "$119.88")
            #expect(monthly.commitmentInfo.period.unit == .year && monthly.commitmentInfo.period.value == 1)
            #expect(monthly.subscriptionOffers.isEmpty)
            #expect(monthly[offers: .introductory].isEmpty)
            guard case .singlePrice(let single) = monthly.pricingModel else { return }
            #expect(single.billingInfo.price == monthly.billingPrice)
            #expect(single.billingInfo.displayPrice == "$9.99")
            #expect(single.billingInfo.period == monthly.billingPeriod)
            #expect(single.commitmentInfo == monthly.commitmentInfo)
            let plain = try #require(try await product(BillingPlanFixture.monthly).subscription)
            #expect(plain.pricingTerms.map(\.billingPlanType) == [.upFront])
            #expect(plain.pricingTerms.first?.billingPrice == Decimal(string: "12.99"))
        }
    }

    @Test("Buying with .billingPlanType(.monthly): the transaction's plan and commitment, and the renewal info's")
    func monthlyPurchase() async throws {
        let store = try Self.store()
        try await StoreKitEnvironment.withStore(store) {
            let annual = try await product(Self.annual)
            let transaction = try purchased(try await annual.purchase(options: [.billingPlanType(.monthly)]))
            #expect(transaction.billingPlanType == .monthly)
            #expect(transaction.price == Decimal(string: "9.99"))
            #expect(transaction.expirationDate == Self.months(1, after: transaction.purchaseDate))
            #expect(transaction.offer == nil)
            #expect(transaction.advancedCommerceInfo == nil)
            let commitment = try #require(transaction.commitmentInfo)
            #expect(commitment.billingPeriodNumber == 1)
            #expect(commitment.totalBillingPeriods == 12)
            #expect(commitment.expirationDate == Self.months(12, after: transaction.purchaseDate))
            #expect(commitment.price == Decimal(string: "119.88"))
            let status = try #require(try await annual.subscription?.status.first)
            let renewal = try status.renewalInfo.payloadValue
            #expect(renewal.renewalPrice == Decimal(string: "9.99"))
            #expect(renewal.renewalBillingPlanType == .monthly)
            #expect(renewal.advancedCommerceInfo == nil)
            let next = try #require(renewal.commitmentInfo)
            #expect(next.renewalDate == commitment.expirationDate)
            #expect(next.renewalPrice == Decimal(string: "119.88"))
            #expect(next.willAutoRenew)
            #expect(next.autoRenewPreference == Self.annual)
            #expect(next.renewalBillingPlanType == .monthly)
            await transaction.finish()
        }
    }

    @Test("Without the option the plan is up front; a plan the product does not offer is productUnavailable")
    func upFrontAndRefusal() async throws {
        let store = try Self.store()
        try await StoreKitEnvironment.withStore(store) {
            let plain = try await product(BillingPlanFixture.monthly)
            await #expect(throws: Product.PurchaseError.productUnavailable) {
                _ = try await plain.purchase(options: [.billingPlanType(.monthly)])
            }
            await #expect(throws: Product.PurchaseError.productUnavailable) {
                _ = try await plain.purchase(options: [.billingPlanType(.init(rawValue: "weekly"))])
            }
            let transaction = try purchased(try await product(Self.annual).purchase())
            #expect(transaction.billingPlanType == .upFront)
            #expect(transaction.commitmentInfo == nil)
            #expect(transaction.offer?.type == .introductory)
            let renewal = try #require(try await product(Self.annual).subscription?.status.first)
            #expect(try renewal.renewalInfo.payloadValue.commitmentInfo == nil)
            #expect(try renewal.renewalInfo.payloadValue.renewalBillingPlanType == .upFront)
        }
    }

    @Test("BillingPlanType is RawRepresentable; a subscription whose configuration names no plan has none signed")
    func rawValuesAndNoPlan() async throws {
        #expect(Product.SubscriptionInfo.BillingPlanType(rawValue: "monthly") == .monthly)
        #expect(Product.SubscriptionInfo.BillingPlanType.upFront.rawValue == "upFront")
        let period: Product.SubscriptionInfo.BillingPeriod? = nil
        #expect(period == nil)
        try await StoreKitEnvironment.withStore(try Self.store()) {
            let transaction = try purchased(try await product(BillingPlanFixture.monthly).purchase())
            #expect(transaction.billingPlanType == nil)
            #expect(transaction.commitmentInfo == nil)
        }
    }
}
