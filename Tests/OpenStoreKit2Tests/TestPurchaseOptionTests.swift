import Foundation
import OpenStoreKit2
import OpenStoreKitTest
import StoreSimulator
import Testing

@Suite("StoreKit Test's purchase options: a purchase dated in the past, a promotional offer by id, an offer code")
struct TestPurchaseOptionTests {
    static let yearly = "com.example.premium.yearly"
    static let monthly = "com.example.premium.monthly"
    static let day: TimeInterval = 86_400

    /// Milliseconds, as a signed transaction carries a date.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    @Test("purchaseDate(_:) with renewUntilNow: the purchase is dated then, and each renewal since is in the history")
    func renewsUntilNow() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        let date = store.now.addingTimeInterval(-400 * Self.day)
        try await StoreKitEnvironment.withStore(store) {
            let bought = try await session.buyProduct(identifier: Self.yearly, options: [.purchaseDate(date)])
            #expect(Self.milliseconds(bought.purchaseDate) == Self.milliseconds(date))
            let all = await collect(Transaction.all(for: Self.yearly)).map(\.unsafePayloadValue)
            #expect(all.count == 2)
            let renewal = try #require(all.last)
            #expect(renewal.id != bought.id && renewal.originalID == bought.id)
            #expect(renewal.purchaseDate == bought.expirationDate)
            #expect((renewal.expirationDate ?? .distantPast) > store.now)
            let status = try #require(try await Product.SubscriptionInfo.status(for: "premium").first)
            #expect(status.state == .subscribed)
            #expect(try status.renewalInfo.payloadValue.willAutoRenew)
        }
    }

    @Test("The app hears a dated purchase and each renewal since through Transaction.updates, in order")
    func heardByTheApp() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        let date = store.now.addingTimeInterval(-800 * Self.day)
        try await StoreKitEnvironment.withStore(store) {
            let tap = UpdatesTap()
            let bought = try await session.buyProduct(identifier: Self.yearly, options: [.purchaseDate(date)])
            var heard: [UInt64] = []
            for _ in 0..<3 { heard.append(try await tap.next().payloadValue.id) }
            tap.stop()
            let all = await collect(Transaction.all(for: Self.yearly)).map(\.unsafePayloadValue.id)
            #expect(heard.first == bought.id)
            #expect(heard == all)
            #expect(all.count == 3)
        }
    }

    @Test("A purchase date before 1970, or not a number, is refused")
    func outOfRange() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        for date in [Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: .nan)] {
            await #expect(throws: SKTestError.self) {
                try await session.buyProduct(identifier: Self.yearly, options: [.purchaseDate(date)])
            }
        }
        #expect(session.allTransactions().isEmpty)
    }

    @Test("purchaseDate(_:renewalBehavior: .cancelImmediately): one period, auto-renew off, expired once it ended")
    func cancelImmediately() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        let date = store.now.addingTimeInterval(-400 * Self.day)
        try await StoreKitEnvironment.withStore(store) {
            let bought = try await session.buyProduct(
                identifier: Self.yearly, options: [.purchaseDate(date, renewalBehavior: .cancelImmediately)])
            #expect(await collect(Transaction.all(for: Self.yearly)).map(\.unsafePayloadValue.id) == [bought.id])
            #expect(await collect(Transaction.currentEntitlements).isEmpty)
            let status = try #require(try await Product.SubscriptionInfo.status(for: "premium").first)
            #expect(status.state == .expired)
            let renewal = try status.renewalInfo.payloadValue
            #expect(!renewal.willAutoRenew)
            #expect(renewal.expirationReason == .autoRenewDisabled)
        }
    }

    @Test("A purchase date in the future, or within the account's subscription, is refused and buys nothing")
    func refusedDates() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        try await StoreKitEnvironment.withStore(store) {
            await #expect(throws: SKTestError.self) {
                try await session.buyProduct(
                    identifier: Self.yearly, options: [.purchaseDate(store.now.addingTimeInterval(60))])
            }
            #expect(await collect(Transaction.all).isEmpty)
            try await session.buyProduct(identifier: Self.yearly)
            await #expect(throws: SKTestError.self) {
                try await session.buyProduct(
                    identifier: Self.monthly, options: [.purchaseDate(store.now.addingTimeInterval(-Self.day))])
            }
            #expect(await collect(Transaction.all).count == 1)
        }
    }

    @Test("promotionalOffer(id:) applies the offer without a signature to a customer who subscribed before")
    func promotionalOfferByID() async throws {
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(store: store)
        let offerID = "com.example.premium.monthly.winback"
        try await StoreKitEnvironment.withStore(store) {
            await #expect(throws: SKTestError.self) {
                try await session.buyProduct(identifier: Self.monthly, options: [.promotionalOffer(id: offerID)])
            }
            try await session.buyProduct(identifier: Self.monthly)
            try session.expireSubscription(productIdentifier: Self.monthly)
            await #expect(throws: SKTestError.self) {
                try await session.buyProduct(identifier: Self.monthly, options: [.promotionalOffer(id: "nope")])
            }
            let bought = try await session.buyProduct(
                identifier: Self.monthly, options: [.promotionalOffer(id: offerID)])
            #expect(bought.offer?.type == .promotional)
            #expect(bought.offer?.id == offerID)
            #expect(bought.offer?.paymentMode == .payAsYouGo)
            #expect(bought.price == Decimal(string: "1.99"))
        }
    }

    @Test("codeOffer(referenceName:) redeems an offer code of the .storekit file: the offer has type .code")
    func offerCode() async throws {
        let store = SimulatedStore(lane: .manual)
        let configuration = try StoreConfiguration(data: OfferCodeFixture.data, sourceName: "Codes.storekit")
        let session = SKTestSession(configuration: configuration, store: store)
        try await StoreKitEnvironment.withStore(store) {
            await #expect(throws: SKTestError.self) {
                try await session.buyProduct(
                    identifier: OfferCodeFixture.monthly, options: [.codeOffer(referenceName: "NOPE")])
            }
            let bought = try await session.buyProduct(
                identifier: OfferCodeFixture.monthly, options: [.codeOffer(referenceName: "SPRING")])
            #expect(bought.offer?.type == .code)
            #expect(bought.offer?.id == "SPRING")
            #expect(bought.offer?.paymentMode == .freeTrial)
            #expect(bought.offer?.period?.unit == .month && bought.offer?.period?.value == 1)
            #expect(bought.price == 0)
            let status = try #require(try await Product.SubscriptionInfo.status(for: OfferCodeFixture.groupID).first)
            #expect(status.transaction.unsafePayloadValue.id == bought.id)
            // The file's eligibility is new and expired customers: not a subscriber, until the subscription lapses.
            await #expect(throws: SKTestError.self) {
                try await session.buyProduct(
                    identifier: OfferCodeFixture.monthly, options: [.codeOffer(referenceName: "SPRING")])
            }
            try session.expireSubscription(productIdentifier: OfferCodeFixture.monthly)
            let again = try await session.buyProduct(
                identifier: OfferCodeFixture.monthly, options: [.codeOffer(referenceName: "SPRING")])
            #expect(again.offer?.type == .code)
            // An offer code is not one of the product's subscription offers.
            let product = try #require(try await Product.products(for: [OfferCodeFixture.monthly]).first)
            #expect(product.subscription?.promotionalOffers.isEmpty == true)
        }
    }

    @Test("An offer code's eligibility other than new, existing or expired is refused, naming where it is")
    func badEligibility() throws {
        let text = String(decoding: OfferCodeFixture.data, as: UTF8.self)
            .replacingOccurrences(of: #"[ "new", "expired" ]"#, with: #"[ "new", "lapsed" ]"#)
        #expect(throws: StoreSimulatorError.self) {
            try StoreConfiguration(data: Data(text.utf8), sourceName: "Codes.storekit")
        }
        do {
            _ = try StoreConfiguration(data: Data(text.utf8), sourceName: "Codes.storekit")
        } catch {
            #expect(error.detail.contains("codeOffers[0].eligibility[1]"), "\(error.detail)")
        }
    }

    @Test("Product.purchase(options:) ignores StoreKit Test's options, as Apple documents them for buyProduct")
    func purchaseIgnoresThem() async throws {
        let store = SimulatedStore(lane: .manual)
        try await StoreKitEnvironment.withStore(store) {
            let yearly = try #require(try await Product.products(for: [Self.yearly]).first)
            let date = store.now.addingTimeInterval(-400 * Self.day)
            let transaction = try purchased(try await yearly.purchase(options: [.purchaseDate(date)]))
            #expect(Self.milliseconds(transaction.purchaseDate) == Self.milliseconds(store.now))
        }
    }
}

/// A `.storekit` file with one monthly subscription and an offer code (a free month, reference name `SPRING`).
enum OfferCodeFixture {
    static let groupID = "OC000001"
    static let monthly = "com.example.codes.monthly"
    static let data = Data(
        """
        {
          "identifier" : "OC000000",
          "nonRenewingSubscriptions" : [ ],
          "products" : [ ],
          "settings" : { "_storefront" : "USA", "_locale" : "en_US" },
          "subscriptionGroups" : [
            {
              "id" : "OC000001",
              "localizations" : [ ],
              "name" : "Codes",
              "subscriptions" : [
                {
                  "adHocOffers" : [ ],
                  "codeOffers" : [
                    {
                      "eligibility" : [ "new", "expired" ],
                      "internalID" : "OC000003",
                      "isStackable" : false,
                      "paymentMode" : "free",
                      "referenceName" : "SPRING",
                      "subscriptionPeriod" : "P1M"
                    }
                  ],
                  "displayPrice" : "9.99",
                  "familyShareable" : false,
                  "groupNumber" : 1,
                  "internalID" : "OC000002",
                  "introductoryOffer" : null,
                  "localizations" : [ { "description" : "Monthly", "displayName" : "Monthly", "locale" : "en_US" } ],
                  "productID" : "com.example.codes.monthly",
                  "recurringSubscriptionPeriod" : "P1M",
                  "referenceName" : "Monthly",
                  "subscriptionGroupID" : "OC000001",
                  "type" : "RecurringSubscription",
                  "winbackOffers" : [ ]
                }
              ]
            }
          ],
          "version" : { "major" : 4, "minor" : 0 }
        }
        """.utf8)
}
