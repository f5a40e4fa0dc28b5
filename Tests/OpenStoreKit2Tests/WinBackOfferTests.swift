import Foundation
import OpenStoreKit2
import StoreModels
import StoreSimulator
import TestSupport
import Testing

@Suite("StoreKit 2's win-back offers: the product's offers, the renewal info's eligible ones, the purchase option")
struct WinBackOfferPurchaseTests {
    static let day: TimeInterval = 86_400
    static let monthly = WinBackFixture.monthly

    /// A store whose customer paid for the monthly subscription for 40 days, then let it lapse a month ago.
    static func lapsedStore() throws -> SimulatedStore {
        let configuration = try StoreConfiguration(data: WinBackFixture.data, sourceName: "WinBack.storekit")
        let store = SimulatedStore(configuration: configuration, lane: .manual)
        try store.buyProduct(monthly)
        try store.advance(by: 40 * day)
        try store.expireSubscription(productID: monthly)
        try store.advance(by: 31 * day)
        return store
    }

    @Test("Product.SubscriptionInfo.winBackOffers lists every win-back offer, of type .winBack, with its terms")
    func productOffers() async throws {
        let store = try Self.lapsedStore()
        try await StoreKitEnvironment.withStore(store) {
            let info = try #require(try await product(Self.monthly).subscription)
            #expect(info.winBackOffers.map(\.id) == ["wb.half", "wb.free", "wb.high"])
            #expect(info.winBackOffers.allSatisfy { $0.type == .winBack })
            #expect(info.promotionalOffers.isEmpty)
            let half = try #require(info.winBackOffers.first)
            #expect(half.price == Decimal(string: "4.99"))
            #expect(half.displayPrice == "$4.99")
            #expect(half.paymentMode == .payAsYouGo)
            #expect(half.period.value == 1 && half.period.unit == .month)
            #expect(half.periodCount == 3)
            #expect(info.winBackOffers[1].paymentMode == .freeTrial)
        }
    }

    @Test("RenewalInfo.eligibleWinBackOfferIDs is the engine's list, best first; empty while subscribed")
    func eligibleIDs() async throws {
        let store = try Self.lapsedStore()
        try await StoreKitEnvironment.withStore(store) {
            let status = try #require(try await product(Self.monthly).subscription?.status.first)
            #expect(status.state == .expired)
            let renewal = try status.renewalInfo.payloadValue
            #expect(renewal.eligibleWinBackOfferIDs == ["wb.high", "wb.yearly", "wb.half"])
            #expect(renewal.eligibleWinBackOfferIDs == store.eligibleWinBackOfferIDs(groupID: WinBackFixture.groupID))
        }
    }

    @Test("Purchasing with .winBackOffer(_:) redeems it: the transaction's offer is a win-back offer at its price")
    func purchase() async throws {
        let store = try Self.lapsedStore()
        try await StoreKitEnvironment.withStore(store) {
            let monthly = try await product(Self.monthly)
            let offer = try #require(monthly.subscription?.winBackOffers.first { $0.id == "wb.half" })
            let transaction = try purchased(try await monthly.purchase(options: [.winBackOffer(offer)]))
            #expect(transaction.offer?.type == .winBack)
            #expect(transaction.offer?.id == "wb.half")
            #expect(transaction.offer?.paymentMode == .payAsYouGo)
            #expect(transaction.offerType == .winBack)
            #expect(transaction.price == Decimal(string: "4.99"))
            await transaction.finish()
            let status = try #require(try await monthly.subscription?.status.first)
            #expect(status.state == .subscribed)
            let renewal = try status.renewalInfo.payloadValue
            #expect(renewal.eligibleWinBackOfferIDs.isEmpty)
            #expect(renewal.offer?.type == .winBack)
            #expect(renewal.renewalPrice == Decimal(string: "4.99"))
        }
    }

    @Test("A win-back offer the customer may not redeem fails the purchase with PurchaseError.ineligibleForOffer")
    func ineligible() async throws {
        let store = try Self.lapsedStore()
        try await StoreKitEnvironment.withStore(store) {
            let monthly = try await product(Self.monthly)
            let free = try #require(monthly.subscription?.winBackOffers.first { $0.id == "wb.free" })
            await #expect(throws: Product.PurchaseError.ineligibleForOffer) {
                try await monthly.purchase(options: [.winBackOffer(free)])
            }
            let high = try #require(monthly.subscription?.winBackOffers.first { $0.id == "wb.high" })
            let transaction = try purchased(try await monthly.purchase(options: [.winBackOffer(high)]))
            #expect(transaction.price == Decimal(string: "19.99"))
            await #expect(throws: Product.PurchaseError.ineligibleForOffer, "subscribed again") {
                try await monthly.purchase(options: [.winBackOffer(high)])
            }
        }
    }
}
