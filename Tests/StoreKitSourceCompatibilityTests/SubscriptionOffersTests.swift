// Tests of the subscription manager, driven as iOS tests drive one: SKTestSession with a `.storekit` file, StoreKit
// Test's purchase options, and a promotional offer signed as the app's server signs it.
import StoreKit
import StoreKitTest
import Testing

@Suite("Offers, statuses and purchase intents as an app handles them, with StoreKit Test", .timeLimit(.minutes(1)))
@MainActor
struct SubscriptionOffersTests {
    static let monthly = "com.example.plus.monthly"
    static let yearly = "com.example.plus.yearly"
    static let promotional = "back3"

    /// One group, Plus: monthly (a free week for new customers, promotional offer `back3` at 1.99 a month for three
    /// months, offer code `SPRING` for a free month, win-back offer `comeback`), and yearly.
    static let configuration = """
        { "version" : { "major" : 4, "minor" : 0 }, "settings" : { "_storefront" : "USA", "_locale" : "en_US" },
          "products" : [ { "productID" : "com.example.plus.lifetime", "type" : "NonConsumable",
                           "displayPrice" : "49.99", "referenceName" : "Lifetime" } ],
          "subscriptionGroups" : [ { "id" : "PLUS", "name" : "Plus", "subscriptions" : [
            { "productID" : "com.example.plus.monthly", "type" : "RecurringSubscription", "displayPrice" : "4.99",
              "recurringSubscriptionPeriod" : "P1M", "subscriptionGroupID" : "PLUS", "groupNumber" : 2,
              "introductoryOffer" : { "paymentMode" : "free", "subscriptionPeriod" : "P1W" },
              "adHocOffers" : [ { "offerID" : "back3", "referenceName" : "Back", "paymentMode" : "payAsYouGo",
                                  "displayPrice" : "1.99", "subscriptionPeriod" : "P1M", "numberOfPeriods" : 3 } ],
              "codeOffers" : [ { "referenceName" : "SPRING", "paymentMode" : "free", "subscriptionPeriod" : "P1M",
                                 "eligibility" : [ "new", "expired" ], "isStackable" : false } ],
              "winbackOffers" : [ { "offerID" : "comeback", "paymentMode" : "free", "subscriptionPeriod" : "P1M",
                                    "numberOfPeriods" : 1, "referenceName" : "A free month" } ] },
            { "productID" : "com.example.plus.yearly", "type" : "RecurringSubscription", "displayPrice" : "39.99",
              "recurringSubscriptionPeriod" : "P1Y", "subscriptionGroupID" : "PLUS", "groupNumber" : 1 } ] } ] }
        """

    /// A session over a store of this test's own, on the file above.
    func makeSession() throws -> SKTestSession {
        try makeTestSession(Self.configuration, label: "SubscriptionOffersTests")
    }

    func product(_ id: String) async throws -> Product {
        try #require(try await Product.products(for: [id]).first)
    }

    @Test("A promotional offer and intro eligibility signed as JWS: the offer is in the transaction and renewal info")
    func signedOffer() async throws {
        let session = try makeSession()
        // The app's server signs with its In-App Purchase key; the store is given the key's public half.
        let signer = PromotionalOfferSigner.test(appBundleID: session.store.app.bundleIdentifier)
        session.store.updateSettings {
            $0.subscriptionOfferKeys[signer.keyID] = PromotionalOfferSigner.testPublicKeyPEM
        }
        try await StoreKitEnvironment.withStore(session.store) {
            let manager = SubscriptionManager()
            let monthly = try await product(Self.monthly)
            try await session.buyProduct(identifier: Self.monthly)
            try session.expireSubscription(productIdentifier: Self.monthly)
            let offer = try #require(monthly.subscription?.promotionalOffers.first)
            let appTransactionID = try manager.checkVerified(try await AppTransaction.shared).appTransactionID
            let jws = try signer.promotionalOfferJWS(
                productID: Self.monthly, offerID: offer.id ?? "", issuedAt: session.store.now)
            let eligibility = try signer.introductoryOfferEligibilityJWS(
                productID: Self.monthly, allowIntroductoryOffer: false, transactionID: appTransactionID,
                issuedAt: session.store.now)
            let transaction = try await manager.purchase(
                monthly, offer: offer, compactJWS: jws, eligibilityJWS: eligibility)
            let bought = manager.summary(of: transaction)
            #expect(bought.offerType == .promotional)
            #expect(bought.offerID == Self.promotional)
            #expect(bought.offerPeriod.map { String(reflecting: $0) } == "3 months", "the whole offer: 3 periods")
            #expect(bought.price == Decimal(string: "1.99"))
            #expect(bought.storefrontCountryCode == "USA")
            #expect(bought.currencyCode == "USD")

            let status = try #require(try await monthly.subscription?.status.first)
            let summary = try manager.summary(of: status)
            #expect(summary.willAutoRenew)
            #expect(summary.offerType == "2")
            #expect(summary.offerID == Self.promotional)
            #expect(summary.offerPaymentMode == "PAY_AS_YOU_GO")
            #expect(summary.offerPaymentModeString == "PAY_AS_YOU_GO")
            #expect(summary.offerPeriod == "3 months")
            #expect(summary.renewalPrice == Decimal(string: "1.99"))
            #expect(summary.currencyCode == "USD")
            #expect(summary.appAccountToken == UUID(uuidString: "6B29FC40-CA47-1067-B31D-00DD010662DA"))
            #expect(summary.appTransactionID == appTransactionID)
            #expect(summary.eligibleWinBackOfferIDs.isEmpty, "subscribed again")
            let sent = try JSONDecoder().decode(SubscriptionSummary.self, from: manager.encoded(summary))
            #expect(sent.offerID == summary.offerID && sent.appAccountToken == summary.appAccountToken)

            // The same JWS again: its nonce was used.
            await #expect(throws: Product.PurchaseError.invalidOfferSignature) {
                _ = try await manager.purchase(monthly, offer: offer, compactJWS: jws)
            }
        }
    }

    @Test("Status.all gives each group's statuses; a lapsed customer's renewal info lists the win-back offer")
    func statuses() async throws {
        let session = try makeSession()
        try await StoreKitEnvironment.withStore(session.store) {
            let manager = SubscriptionManager()
            try await session.buyProduct(identifier: Self.monthly)
            try session.expireSubscription(productIdentifier: Self.monthly)
            let (groups, continuation) = AsyncStream.makeStream(of: String.self)
            let observer = Task { await manager.observeStatuses { continuation.yield($0) } }
            defer { observer.cancel() }
            var heard = groups.makeAsyncIterator()
            #expect(await heard.next() == "PLUS")
            let status = try #require(manager.statusesByGroup["PLUS"]?.first)
            #expect(status.state == .expired)
            let summary = try manager.summary(of: status)
            #expect(!summary.willAutoRenew)
            #expect(summary.eligibleWinBackOfferIDs == ["comeback"])
            #expect(summary.renewalDate == nil)
            let line = try await manager.environmentLine(for: status)
            #expect(line == "Sandbox Sandbox Sandbox iOS", "\(line)")
        }
    }

    @Test("A purchase started in the App Store reaches PurchaseIntent.intents, and the app completes it")
    func purchaseIntent() async throws {
        let session = try makeSession()
        try await StoreKitEnvironment.withStore(session.store) {
            let manager = SubscriptionManager()
            let (handled, continuation) = AsyncStream.makeStream(of: Transaction.self)
            let observer = Task { await manager.observePurchaseIntents { continuation.yield($0) } }
            defer { observer.cancel() }
            try session.sendPurchaseIntent(productIdentifier: "com.example.plus.lifetime")
            var transactions = handled.makeAsyncIterator()
            let transaction = try #require(await transactions.next())
            #expect(transaction.productID == "com.example.plus.lifetime")
            #expect(manager.intentProducts == ["com.example.plus.lifetime"])
            let lifetime = try await product("com.example.plus.lifetime")
            #expect(await manager.entitlements(to: lifetime) == [transaction.id])
        }
    }

    @Test("StoreKit Test's options: a year's subscription bought 400 days ago renewed; cancelled at once, it expired")
    func purchaseDate() async throws {
        let session = try makeSession()
        try await StoreKitEnvironment.withStore(session.store) {
            let manager = SubscriptionManager()
            let yearly = try await product(Self.yearly)
            let date = session.store.now.addingTimeInterval(-400 * 86_400)
            let first = try await session.buyProduct(
                identifier: Self.yearly, options: [.purchaseDate(date, renewalBehavior: .renewUntilNow)])
            #expect(abs(first.purchaseDate.timeIntervalSince(date)) < 1)
            let entitled = await manager.entitlements(to: yearly)
            #expect(entitled.count == 1 && entitled != [first.id], "the renewal entitles now")
            try session.expireSubscription(productIdentifier: Self.yearly)

            session.clearTransactions()
            try await session.buyProduct(
                identifier: Self.yearly, options: [.purchaseDate(date, renewalBehavior: .cancelImmediately)])
            #expect(await manager.entitlements(to: yearly).isEmpty)
            let status = try #require(try await yearly.subscription?.status.first)
            #expect(status.state == .expired)
            #expect(try manager.summary(of: status).willAutoRenew == false)
        }
    }

    @Test("StoreKit Test's options: a promotional offer by id, and an offer code by reference name")
    func testOffers() async throws {
        let session = try makeSession()
        try await StoreKitEnvironment.withStore(session.store) {
            let manager = SubscriptionManager()
            let code = try await session.buyProduct(
                identifier: Self.monthly, options: [.codeOffer(referenceName: "SPRING")])
            #expect(manager.summary(of: code).offerType == .code)
            #expect(manager.summary(of: code).offerID == "SPRING")
            #expect(manager.summary(of: code).price == 0)
            try session.expireSubscription(productIdentifier: Self.monthly)
            let promotional = try await session.buyProduct(
                identifier: Self.monthly, options: [.promotionalOffer(id: Self.promotional)])
            #expect(manager.summary(of: promotional).offerType == .promotional)
            #expect(manager.summary(of: promotional).offerID == Self.promotional)
            #expect(manager.summary(of: promotional).offerPeriod?.unit == .month)
            #expect(try await manager.originalPlatform() == "iOS")
        }
    }
}
