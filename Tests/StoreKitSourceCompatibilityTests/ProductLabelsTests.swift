import StoreKit
import StoreKitTest
import Testing

/// Apple's names for people and for debugging, used as iOS code uses them.
@Suite("Names for people and for debugging", .timeLimit(.minutes(1)))
struct ProductLabelsTests {
    func makeSession() throws -> SKTestSession {
        let store = SimulatedStore(lane: .dispatch(DispatchQueue(label: "ProductLabelsTests")))
        let session = try SKTestSession(contentsOf: StoreTests.configuration, store: store)
        session.disableDialogs = true
        session.clearTransactions()
        return session
    }

    @Test("a subscription's kind, unit, price per unit and introductory offer")
    func subscriptionLabels() async throws {
        let session = try makeSession()
        try await StoreKitEnvironment.withStore(session.store) {
            let products = try await Product.products(for: ["com.example.auto-renewable", "com.example.no-ads"])
            let monthly = try #require(products.first { $0.id == "com.example.auto-renewable" })
            let noAds = try #require(products.first { $0.id == "com.example.no-ads" })
            let labels = ProductLabels(product: monthly)
            #expect(labels.kind == "Auto-Renewable Subscription")
            #expect(labels.pricePerUnit == "\(monthly.displayPrice) per month")
            #expect(labels.unitLabel == "Month")
            #expect(labels.introductoryOffer == "Introductory Offer: Free Trial")
            #expect(labels.introductoryPeriodForLog == "1 week")
            #expect(ProductLabels(product: noAds).kind == "Non-Consumable")
            #expect(ProductLabels(product: noAds).pricePerUnit == nil)
        }
    }

    @Test("every unit, type, offer type and payment mode has a name")
    func everyName() {
        let units: [Product.SubscriptionPeriod.Unit] = [.day, .week, .month, .year]
        #expect(units.map(\.localizedDescription) == ["Day", "Week", "Month", "Year"])
        let types: [Product.ProductType] = [.consumable, .nonConsumable, .nonRenewable, .autoRenewable]
        #expect(
            types.map(\.localizedDescription) == [
                "Consumable", "Non-Consumable", "Non-Renewing Subscription", "Auto-Renewable Subscription",
            ])
        let offerTypes: [Product.SubscriptionOffer.OfferType] = [.introductory, .promotional, .winBack]
        #expect(
            offerTypes.map(\.localizedDescription) == ["Introductory Offer", "Promotional Offer", "Win-Back Offer"])
        let modes: [Product.SubscriptionOffer.PaymentMode] = [.payAsYouGo, .payUpFront, .freeTrial]
        #expect(modes.map(\.localizedDescription) == ["Pay As You Go", "Pay Up Front", "Free Trial"])
    }

    @Test("a purchase with a free trial logs its offer through the deprecated string representations")
    func purchaseLogLine() async throws {
        let session = try makeSession()
        try await StoreKitEnvironment.withStore(session.store) {
            let monthly = try #require(try await Product.products(for: ["com.example.auto-renewable"]).first)
            guard case .success(let result) = try await monthly.purchase() else {
                Issue.record("the purchase did not succeed")
                return
            }
            #expect(
                PurchaseLogLine.line(for: result)
                    == "com.example.auto-renewable Sandbox PURCHASE [FREE_TRIAL P1W] verified(")
        }
    }
}
