import Foundation
import ReceiptKit
import StoreModels
import TestSupport
import Testing

@testable import StoreSimulator

@Suite("Win-back offers: loaded from .storekit files, redeemed by customers whose subscription lapsed")
struct WinBackOfferTests {
    static let day: TimeInterval = 86_400
    static let monthly = WinBackFixture.monthly
    static let group = WinBackFixture.groupID

    static func configuration() throws -> StoreConfiguration {
        try StoreConfiguration(data: WinBackFixture.data, sourceName: "WinBack.storekit")
    }

    static func store() throws -> SimulatedStore {
        SimulatedStore(configuration: try configuration(), lane: .manual)
    }

    /// A customer who paid for the monthly subscription from January 1 to February 10, 2026, when it lapsed.
    static func lapsedStore() throws -> SimulatedStore {
        let store = try store()
        try store.buyProduct(monthly)
        try store.advance(by: 40 * day)
        try store.expireSubscription(productID: monthly)
        return store
    }

    /// Submits a payment on a device and lets the store decide it.
    static func pay(_ request: PaymentRequest, in store: SimulatedStore) -> DeviceTransaction? {
        let (connection, listener) = store.silentConnection("phone")
        let id = connection.submit(request)
        store.runUntilIdle()
        defer { withExtendedLifetime(listener) {} }
        return connection.unfinishedTransaction(id)
    }

    // MARK: Loading

    @Test("A subscription's winbackOffers load with their price, periods and conditions; other offers keep theirs")
    func loads() throws {
        let catalog = try Self.configuration().catalog
        let info = try #require(catalog.product(Self.monthly)?.subscription)
        #expect(info.promotionalOffers.isEmpty)
        #expect(info.winBackOffers.map(\.identifier) == ["wb.half", "wb.free", "wb.high"])
        #expect(info.winBackOffers.allSatisfy { $0.kind == .winBack })
        let half = try #require(info.winBackOffer(identifier: "wb.half"))
        #expect(half.paymentMode == .payAsYouGo)
        #expect(half.price == Decimal(string: "4.99"))
        #expect(half.period.iso8601 == "P1M")
        #expect(half.numberOfPeriods == 3)
        #expect(
            half.winBackEligibility
                == WinBackEligibility(
                    paidSubscriptionDurationInMonths: 1, minimumMonthsSinceLastSubscribed: 1,
                    maximumMonthsSinceLastSubscribed: 6, waitBetweenOffersInMonths: 12, priority: .normal))
        let free = try #require(info.winBackOffer(identifier: "wb.free"))
        #expect(free.paymentMode == .freeTrial && free.price == 0)
        #expect(free.winBackEligibility == WinBackEligibility(paidSubscriptionDurationInMonths: 6))
        #expect(info.winBackOffer(identifier: "wb.high")?.winBackEligibility?.priority == .high)
        #expect(info.offer(identifier: "wb.high")?.kind == .winBack)
        #expect(info.promotionalOffer(identifier: "wb.high") == nil)
    }

    @Test(
        "A bad win-back offer is refused with an error naming the key's path",
        arguments: [
            (#""paymentMode" : "free", "priority" : "URGENT""#, "priority", "unknown priority \"URGENT\""),
            (
                #""paymentMode" : "free", "customerEligibilityPaidSubscriptionDurationInMonths" : -1"#,
                "customerEligibilityPaidSubscriptionDurationInMonths", "0 or more, found -1"
            ),
            (
                #""paymentMode" : "free", "customerEligibilityTimeSinceLastSubscribedInMonths" : "#
                    + #"{ "minimum" : 7, "maximum" : 2 }"#,
                "customerEligibilityTimeSinceLastSubscribedInMonths", "minimum 7 is more than maximum 2"
            ),
            (
                #""paymentMode" : "free", "customerEligibilityTimeSinceLastSubscribedInMonths" : 3"#,
                "customerEligibilityTimeSinceLastSubscribedInMonths", "expected an object"
            ),
            (#""paymentMode" : "cheap""#, "paymentMode", "unknown payment mode"),
        ])
    func refusesBadValue(members: String, key: String, message: String) throws {
        let offer = #"{ "offerID" : "wb", "subscriptionPeriod" : "P1M", "# + members + " }"
        let error = try Self.refusal(winbackOffers: "[ \(offer) ]")
        #expect(error.code == .invalidConfiguration)
        #expect(
            error.detail.contains("Products.storekit: subscriptionGroups[0].subscriptions[0].winbackOffers[0].\(key)"))
        #expect(error.detail.contains(message))
    }

    @Test("A win-back offer without an offerID, or with another offer's, is refused")
    func refusesMissingOrDuplicateID() throws {
        let noID = try Self.refusal(
            winbackOffers: #"[ { "subscriptionPeriod" : "P1M", "paymentMode" : "free" } ]"#)
        #expect(noID.detail.contains("subscriptions[0].winbackOffers[0].offerID: missing"))
        let duplicate = try Self.refusal(
            winbackOffers: #"[ { "offerID" : "promo", "subscriptionPeriod" : "P1M", "paymentMode" : "free" } ]"#,
            adHocOffers: #"[ { "offerID" : "promo", "subscriptionPeriod" : "P1M", "paymentMode" : "free" } ]"#)
        #expect(duplicate.detail.contains("subscriptions[0].winbackOffers[0].offerID"))
        #expect(duplicate.detail.contains("\"promo\" names another offer of this subscription"))
    }

    static func refusal(winbackOffers: String, adHocOffers: String = "[ ]") throws -> StoreSimulatorError {
        let text = """
            { "version" : { "major" : 4, "minor" : 0 }, "subscriptionGroups" : [ { "id" : "G", "subscriptions" : [ {
              "productID" : "p", "type" : "RecurringSubscription", "displayPrice" : "2.99",
              "recurringSubscriptionPeriod" : "P1M", "adHocOffers" : \(adHocOffers), "winbackOffers" : \(winbackOffers)
            } ] } ] }
            """
        return try #require(throws: StoreSimulatorError.self) {
            try StoreConfiguration(data: Data(text.utf8), sourceName: "Products.storekit")
        }
    }

    @Test("Subscription information stored before win-back offers existed still decodes, with none")
    func oldStoredInfoDecodes() throws {
        let stored =
            #"{ "groupID" : "G", "groupLevel" : 1, "period" : { "value" : 1, "unit" : "month" }, "#
            + #""promotionalOffers" : [ { "identifier" : "p", "kind" : "promotional", "paymentMode" : "free", "#
            + #""price" : 0, "period" : { "value" : 1, "unit" : "week" }, "numberOfPeriods" : 1 } ] }"#
        let info = try JSONDecoder().decode(SubscriptionInfo.self, from: Data(stored.utf8))
        #expect(info.winBackOffers.isEmpty)
        #expect(info.promotionalOffers.first?.winBackEligibility == nil)
        let again = try JSONDecoder().decode(SubscriptionInfo.self, from: JSONEncoder().encode(info))
        #expect(again == info)
        let loaded = try #require(try Self.configuration().catalog.product(Self.monthly)?.subscription)
        #expect(try JSONDecoder().decode(SubscriptionInfo.self, from: JSONEncoder().encode(loaded)) == loaded)
    }

    // MARK: Eligibility

    @Test("A customer who never subscribed may redeem no win-back offer")
    func newCustomer() throws {
        let store = try Self.store()
        #expect(store.eligibleWinBackOfferIDs(groupID: Self.group).isEmpty)
        try store.buyProduct(WinBackFixture.yearly, account: "other")
        try store.expireSubscription(productID: WinBackFixture.yearly, account: "other")
        #expect(store.eligibleWinBackOfferIDs(groupID: Self.group).isEmpty, "another account's lapse is not this one's")
        #expect(store.eligibleWinBackOfferIDs(groupID: Self.group, account: "other") == ["wb.high", "wb.yearly"])
    }

    @Test("An active subscriber, or one in billing retry or a grace period, may redeem none; once lapsed, may")
    func activeAndBillingRetry() throws {
        let store = try Self.store()
        try store.buyProduct(Self.monthly)
        #expect(store.subscription(groupID: Self.group)?.phase == .active)
        #expect(store.eligibleWinBackOfferIDs(groupID: Self.group).isEmpty)
        store.updateSettings {
            $0.billingRetryOnRenewal = true
            $0.billingGracePeriodEnabled = true
        }
        try store.forceRenewal(productID: Self.monthly)
        #expect(store.subscription(groupID: Self.group)?.phase == .gracePeriod)
        #expect(store.eligibleWinBackOfferIDs(groupID: Self.group).isEmpty)
        store.updateSettings { $0.billingGracePeriodEnabled = false }
        try store.advance(by: 20 * Self.day)
        #expect(store.subscription(groupID: Self.group)?.phase == .billingRetry)
        #expect(store.eligibleWinBackOfferIDs(groupID: Self.group).isEmpty)
        try store.expireSubscription(productID: Self.monthly)
        #expect(store.eligibleWinBackOfferIDs(groupID: Self.group) == ["wb.high", "wb.yearly"])
    }

    @Test("A lapsed customer's offers follow each offer's conditions over time, best first")
    func lapsedOverTime() throws {
        let store = try Self.lapsedStore()
        // Lapsed today, having paid about 1.3 months: wb.half waits for a month, wb.free needs six paid months.
        #expect(store.eligibleWinBackOfferIDs(groupID: Self.group) == ["wb.high", "wb.yearly"])
        try store.advance(by: 31 * Self.day)
        // High priority first, then the lowest price a month: 39.99 a year before 4.99 a month.
        #expect(store.eligibleWinBackOfferIDs(groupID: Self.group) == ["wb.high", "wb.yearly", "wb.half"])
        try store.advance(by: 185 * Self.day)
        #expect(store.eligibleWinBackOfferIDs(groupID: Self.group) == ["wb.high", "wb.yearly"], "over six months")
    }

    @Test("Six paid months make the free month eligible; it ranks before the paid offers of normal priority")
    func paidDuration() throws {
        let store = try Self.store()
        try store.buyProduct(Self.monthly)
        try store.advance(by: 200 * Self.day)
        try store.expireSubscription(productID: Self.monthly)
        try store.advance(by: 40 * Self.day)
        #expect(store.eligibleWinBackOfferIDs(groupID: Self.group) == ["wb.high", "wb.free", "wb.yearly", "wb.half"])
    }

    // MARK: Purchases

    @Test("Redeeming a win-back offer charges its price for its periods, then the regular price")
    func redeem() throws {
        let store = try Self.lapsedStore()
        try store.advance(by: 31 * Self.day)
        let transaction = try #require(
            Self.pay(PaymentRequest(productID: Self.monthly, winBackOfferID: "wb.half"), in: store))
        #expect(transaction.state == .purchased)
        let record = try #require(transaction.recordID.flatMap { store.transaction($0) })
        #expect(record.promotionalOfferID == "wb.half")
        #expect(store.amountCharged(forTransaction: record.id) == Decimal(string: "4.99"))
        #expect(record.expirationDate == Calendar.utc.date(byAdding: .month, value: 1, to: record.purchaseDate))
        let signed = try store.signedTransactionValue(record.id).payload
        #expect(signed.offerType == .winBack)
        #expect(signed.offerIdentifier == "wb.half")
        #expect(signed.offerDiscountType == .payAsYouGo)
        #expect(signed.offerPeriod == "P3M")
        #expect(signed.price == 4990)
        // Subscribed again: no win-back offer now; the renewal info tells the offer of the next period.
        #expect(store.eligibleWinBackOfferIDs(groupID: Self.group).isEmpty)
        let renewal = try store.signedRenewalInfoValue(groupID: Self.group).payload
        #expect(renewal.offerType == .winBack)
        #expect(renewal.offerIdentifier == "wb.half")
        #expect(renewal.renewalPrice == 4990)
        #expect(renewal.eligibleWinBackOfferIds == nil)
        // Two more periods at 4.99, then 9.99.
        try store.advance(by: 95 * Self.day)
        let periods = store.transactions().filter { $0.purchaseDate >= record.purchaseDate }
        #expect(periods.count == 4)
        #expect(periods.map(\.promotionalOfferID) == ["wb.half", "wb.half", "wb.half", nil])
        #expect(
            periods.compactMap { store.amountCharged(forTransaction: $0.id) }
                == ["4.99", "4.99", "4.99", "9.99"].compactMap { Decimal(string: $0) })
    }

    @Test("Twelve months must pass before a customer redeems wb.half again; the other offers do not wait")
    func waitBetweenOffers() throws {
        let store = try Self.lapsedStore()
        try store.advance(by: 31 * Self.day)
        let redeemed = Self.pay(PaymentRequest(productID: Self.monthly, winBackOfferID: "wb.half"), in: store)
        #expect(redeemed?.state == .purchased)
        try store.advance(by: 100 * Self.day)
        try store.expireSubscription(productID: Self.monthly)
        try store.advance(by: 40 * Self.day)
        #expect(store.eligibleWinBackOfferIDs(groupID: Self.group) == ["wb.high", "wb.yearly"])
        let refused = Self.pay(PaymentRequest(productID: Self.monthly, winBackOfferID: "wb.half"), in: store)
        #expect(refused?.failure?.code == .ineligibleForOffer)
    }

    @Test(
        "A win-back offer the customer may not redeem is refused: ineligible, unknown, another product's",
        arguments: [
            ("new", "wb.high", StoreErrorCode.ineligibleForOffer),
            ("active", "wb.high", .ineligibleForOffer),
            ("lapsed", "wb.free", .ineligibleForOffer),
            ("lapsed", "nope", .invalidOfferIdentifier),
            ("lapsed", "wb.yearly", .invalidOfferIdentifier),
        ])
    func refused(customer: String, offerID: String, code: StoreErrorCode) throws {
        let store = customer == "lapsed" ? try Self.lapsedStore() : try Self.store()
        if customer == "active" { try store.buyProduct(Self.monthly) }
        let before = store.subscription(groupID: Self.group)
        let transaction = try #require(
            Self.pay(PaymentRequest(productID: Self.monthly, winBackOfferID: offerID), in: store))
        #expect(transaction.state == .failed)
        #expect(transaction.failure?.code == code)
        #expect(store.subscription(groupID: Self.group) == before, "nothing was bought")
    }

    @Test("A StoreKit 1 payment discount naming a win-back offer is refused as not a promotional offer")
    func storeKit1Discount() throws {
        let store = try Self.lapsedStore()
        let discount = DiscountRequest(
            offerID: "wb.high", keyID: "KEY", nonce: UUID().uuidString.lowercased(), signature: "c2ln",
            timestamp: Int64(store.now.timeIntervalSince1970 * 1000))
        let transaction = try #require(
            Self.pay(PaymentRequest(productID: Self.monthly, discount: discount), in: store))
        #expect(transaction.failure?.code == .invalidOfferIdentifier)
        #expect(transaction.failure?.message.contains("is a win-back offer") == true)
    }

    @Test("The signed renewal info lists the eligible offers the engine gives, best first")
    func renewalInfo() throws {
        let store = try Self.lapsedStore()
        try store.advance(by: 31 * Self.day)
        let payload = try store.signedRenewalInfoValue(groupID: Self.group).payload
        #expect(payload.eligibleWinBackOfferIds == ["wb.high", "wb.yearly", "wb.half"])
        #expect(payload.eligibleWinBackOfferIds == store.eligibleWinBackOfferIDs(groupID: Self.group))
        try store.advance(by: 185 * Self.day)
        #expect(
            try store.signedRenewalInfoValue(groupID: Self.group).payload.eligibleWinBackOfferIds == [
                "wb.high", "wb.yearly",
            ])
    }

    @Test("A state file keeps a payment with a win-back offer: reopened, it shows the same history")
    func stateFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        var store = try SimulatedStore(statePath: path, configuration: try Self.configuration(), lane: .manual)
        try store.buyProduct(Self.monthly)
        try store.advance(by: 40 * Self.day)
        try store.expireSubscription(productID: Self.monthly)
        try store.advance(by: 31 * Self.day)
        let (connection, listener) = store.silentConnection("phone")
        let id = connection.submit(PaymentRequest(productID: Self.monthly, winBackOfferID: "wb.half"))
        store.runUntilIdle()
        withExtendedLifetime(listener) {}
        let before = store.transactions()
        #expect(connection.unfinishedTransaction(id)?.state == .purchased)
        try store.close()
        store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(store.transactions() == before)
        #expect(store.catalog.product(Self.monthly)?.subscription?.winBackOffers.count == 3)
        #expect(store.unfinishedTransactions(deviceID: "phone").first?.payment.winBackOfferID == "wb.half")
    }
}

extension Calendar {
    /// The Gregorian calendar in UTC.
    fileprivate static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }
}
