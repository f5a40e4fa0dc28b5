import Foundation
import OpenStoreKit
import OpenStoreKitTest
import StoreModels
import StoreSimulator
import Testing

private let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
}()

private func date(_ year: Int, _ month: Int, _ day: Int) -> Date {
    utc.date(from: DateComponents(year: year, month: month, day: day))!
}

@Suite("Test session: subscriptions")
struct SubscriptionTests {
    @Test("A year of monthly renewals: twelve new purchased transactions whose original is the first purchase")
    func yearOfMonthlyRenewals() throws {
        let env = Environment()
        env.buy(Product.silverMonthly)
        let first = try #require(env.transactions(of: Product.silverMonthly).first)
        #expect(first.purchaseDate == date(2026, 1, 1))
        #expect(first.expirationDate == date(2026, 2, 1))

        let events = try env.session.advance(by: 365 * day)
        env.store.runUntilIdle()
        #expect(events.filter { $0.kind == .renewed }.count == 12)
        #expect(events.map(\.date) == events.map(\.date).sorted(), "in time order")

        let purchased = env.observer.updates(of: Product.silverMonthly, in: .purchased)
        #expect(purchased.count == 13)
        let renewals = Array(purchased.dropFirst())
        #expect(Set(purchased.compactMap(\.transactionIdentifier)).count == 13, "each renewal is a new transaction")
        for renewal in renewals {
            #expect(renewal.originalIdentifier == String(first.identifier), "original chains to the first purchase")
        }
        #expect(renewals.map(\.transactionDate) == (2...13).map { Optional(date(2026, $0, 1)) })

        let history = env.transactions(of: Product.silverMonthly)
        #expect(history.count == 13)
        #expect(history.allSatisfy { $0.originalTransactionIdentifier == first.identifier })
        #expect(history.map(\.purchaseDate) == (1...13).map { date(2026, $0, 1) })
        #expect(history.map(\.expirationDate) == (2...14).map { Optional(date(2026, $0, 1)) })
        let lineItems = history.compactMap { env.store.transaction(UInt64($0.identifier))?.webOrderLineItemID }
        #expect(Set(lineItems).count == 13, "each period has its own line item")
        #expect(env.queue.transactions.isEmpty, "the observer finished every renewal")
        #expect(env.store.now == date(2027, 1, 1))
    }

    @Test("A subscription bought on January 31 renews on the last day of shorter months and goes back to the 31st")
    func monthEnds() throws {
        let env = Environment()
        env.clock.advance(to: date(2026, 1, 31))
        env.buy(Product.silverMonthly)
        try env.session.advance(to: date(2026, 6, 1))
        let expirations = env.transactions(of: Product.silverMonthly).compactMap(\.expirationDate)
        #expect(
            expirations == [
                date(2026, 2, 28), date(2026, 3, 31), date(2026, 4, 30), date(2026, 5, 31), date(2026, 6, 30),
            ]
        )
    }

    @Test("The introductory offer is used once per subscription group and account")
    func introductoryOfferOncePerGroup() throws {
        let env = Environment()
        env.buy(Product.goldMonthly)
        let trial = try #require(env.transactions(of: Product.goldMonthly).first)
        #expect(trial.expirationDate == trial.purchaseDate.addingTimeInterval(7 * day), "a one-week free trial")
        #expect(env.store.transaction(UInt64(trial.identifier))?.isTrialPeriod == true)
        try env.session.expireSubscription(productIdentifier: Product.goldMonthly)

        env.buy(Product.goldYearly)
        let yearly = try #require(env.transactions(of: Product.goldYearly).first)
        #expect(yearly.expirationDate == date(2027, 1, 1), "no two-week trial: the group's offer was used")
        #expect(env.store.transaction(UInt64(yearly.identifier))?.isTrialPeriod == false)

        let other = SKPaymentQueue(store: env.store, deviceID: "other-device", account: "other-account")
        other.add(env.observer)
        let payment = SKMutablePayment()
        payment.productIdentifier = Product.goldYearly
        other.add(payment)
        env.store.runUntilIdle()
        let otherYearly = try #require(env.store.transactions(of: "other-account").first)
        #expect(otherYearly.isTrialPeriod, "another account is still eligible")
        #expect(otherYearly.expirationDate == date(2026, 1, 15))
    }

    @Test("A pay-as-you-go introductory offer flags each of its periods, then renewals are regular")
    func payAsYouGoIntroductoryPeriods() throws {
        let env = Environment()
        env.buy(Product.weekly)
        try env.session.advance(by: 28 * day)
        let records = env.transactions(of: Product.weekly).compactMap { env.store.transaction(UInt64($0.identifier)) }
        #expect(records.count == 5)
        #expect(records.map(\.isInIntroOfferPeriod) == [true, true, false, false, false])
    }

    @Test("A valid promotional offer applies to the purchase and its remaining periods")
    func promotionalOfferValid() throws {
        let env = Environment()
        env.buy(Product.silverMonthly)
        try env.session.expireSubscription(productIdentifier: Product.silverMonthly)
        env.buy(Product.goldMonthly, discount: discount(Product.winback, at: env.store.now))
        #expect(env.observer.states(of: Product.goldMonthly) == [.purchasing, .purchased])
        try env.session.advance(by: 95 * day)
        let records = env.transactions(of: Product.goldMonthly).compactMap {
            env.store.transaction(UInt64($0.identifier))
        }
        #expect(records.map(\.promotionalOfferID) == [Product.winback, Product.winback, Product.winback, nil])
        #expect(records.allSatisfy { !$0.isTrialPeriod }, "no introductory offer with a promotional one")
    }

    @Test(
        "A bad promotional offer fails the purchase with StoreKit's code",
        arguments: [
            ("wrong identifier", SKError.Code.invalidOfferIdentifier),
            ("missing key identifier", .missingOfferParams),
            ("signature not base64", .invalidSignature),
            ("signature two days old", .invalidSignature),
            ("nonce used twice", .invalidSignature),
            ("never subscribed", .ineligibleForOffer),
        ]
    )
    func promotionalOfferRejected(problem: String, code: SKError.Code) throws {
        let env = Environment()
        if problem != "never subscribed" {
            env.buy(Product.silverMonthly)
            try env.session.expireSubscription(productIdentifier: Product.silverMonthly)
        }
        let now = env.store.now
        let offer: SKPaymentDiscount
        switch problem {
        case "wrong identifier": offer = discount("no.such.offer", at: now)
        case "missing key identifier": offer = discount(Product.winback, at: now, keyIdentifier: "")
        case "signature not base64": offer = discount(Product.winback, at: now, signature: "not base64!")
        case "signature two days old": offer = discount(Product.winback, at: now.addingTimeInterval(-2 * day))
        case "nonce used twice":
            let used = discount(Product.winback, at: now)
            env.buy(Product.goldMonthly, discount: used)
            try env.session.expireSubscription(productIdentifier: Product.goldMonthly)
            offer = SKPaymentDiscount(
                identifier: used.identifier,
                keyIdentifier: used.keyIdentifier,
                nonce: used.nonce,
                signature: used.signature,
                timestamp: used.timestamp
            )
        default: offer = discount(Product.winback, at: now)
        }
        env.buy(Product.goldMonthly, discount: offer)
        #expect(env.observer.states(of: Product.goldMonthly).suffix(2) == [.purchasing, .failed])
        #expect(env.observer.updates.last?.errorCode == code)
    }

    @Test("An upgrade takes effect at once; the replaced period is marked upgraded and cancelled")
    func upgrade() throws {
        let env = Environment()
        env.buy(Product.silverMonthly)
        let silver = try #require(env.transactions(of: Product.silverMonthly).first)
        env.clock.advance(by: 10 * day)
        env.buy(Product.goldYearly)
        #expect(env.observer.states(of: Product.goldYearly) == [.purchasing, .purchased])
        let gold = try #require(env.transactions(of: Product.goldYearly).first)
        #expect(gold.purchaseDate == env.store.now)
        #expect(gold.originalTransactionIdentifier == silver.identifier, "same subscription, same original")
        let replaced = try #require(env.store.transaction(UInt64(silver.identifier)))
        #expect(replaced.isUpgraded)
        #expect(replaced.cancellationDate == env.store.now)
        let events = try env.session.advance(by: 60 * day)
        #expect(events.isEmpty, "the replaced monthly plan does not renew")
        #expect(env.store.subscription(groupID: "main")?.productID == Product.goldYearly)
    }

    @Test("A downgrade takes effect at the next renewal")
    func downgrade() throws {
        let env = Environment()
        env.buy(Product.silverMonthly)
        try env.session.expireSubscription(productIdentifier: Product.silverMonthly)
        env.clock.advance(to: date(2026, 3, 1))
        env.buy(Product.goldYearly)
        let yearly = try #require(env.transactions(of: Product.goldYearly).first)
        #expect(yearly.expirationDate == date(2027, 3, 1), "no trial: the group's introductory offer was used")
        env.buy(Product.silverMonthly)
        #expect(env.observer.states(of: Product.silverMonthly) == [.purchasing, .purchased, .purchasing, .purchased])
        #expect(env.transactions(of: Product.silverMonthly).count == 1, "no charge until the renewal")
        #expect(env.store.subscription(groupID: "main")?.renewalProductID == Product.silverMonthly)

        let events = try env.session.advance(to: date(2027, 3, 15))
        env.store.runUntilIdle()
        #expect(events.map(\.kind) == [.renewed])
        let silver = try #require(env.transactions(of: Product.silverMonthly).last)
        #expect(silver.purchaseDate == yearly.expirationDate)
        #expect(silver.expirationDate == date(2027, 4, 1))
        #expect(silver.originalTransactionIdentifier == yearly.originalTransactionIdentifier)
        #expect(env.observer.states(of: Product.silverMonthly).count == 5, "the renewal arrived as purchased")
        #expect(env.observer.states(of: Product.silverMonthly).last == .purchased)
    }

    @Test("Billing retry without a grace period: access ends, attempts fail, billing retry ends in expiry")
    func billingRetryWithoutGrace() throws {
        let env = Environment()
        env.session.shouldEnterBillingRetryOnRenewal = true
        env.buy(Product.silverMonthly)
        let first = try #require(env.transactions(of: Product.silverMonthly).first)
        let events = try env.session.advance(by: 100 * day)
        let renewalDate = date(2026, 2, 1)
        #expect(events.first?.kind == .renewalFailed)
        #expect(events.first?.date == renewalDate)
        #expect(!events.contains { $0.kind == .gracePeriodStarted })
        #expect(events.filter { $0.kind == .billingRetryFailed }.count == 7)
        #expect(events.last?.kind == .expired(.billingRetryEnded))
        #expect(events.last?.date == renewalDate.addingTimeInterval(60 * day), "billing retry lasts 60 days")
        #expect(env.transactions(of: Product.silverMonthly).count == 1, "nothing was charged")
        #expect(env.session.allTransactions().first?.hasPurchaseIssue == false, "the issue left with billing retry")
        #expect(throws: SKTestError(.invalidAction)) {
            try env.session.resolveIssueForTransaction(identifier: first.identifier)
        }
    }

    @Test("Billing retry with a grace period: resolving the issue recovers with the renewal date unchanged")
    func billingRetryWithGraceRecovered() throws {
        let env = Environment()
        env.session.shouldEnterBillingRetryOnRenewal = true
        env.session.billingGracePeriodIsEnabled = true
        env.buy(Product.silverMonthly)
        let events = try env.session.advance(by: 35 * day)
        #expect(events.prefix(2).map(\.kind) == [.renewalFailed, .gracePeriodStarted])
        #expect(env.store.subscription(groupID: "main")?.phase == .gracePeriod)
        #expect(env.store.subscription(groupID: "main")?.gracePeriodEndsAt == date(2026, 2, 17), "16 days")
        let first = try #require(env.transactions(of: Product.silverMonthly).first)
        #expect(first.hasPurchaseIssue)

        try env.session.resolveIssueForTransaction(identifier: first.identifier)
        env.store.runUntilIdle()
        let renewal = try #require(env.transactions(of: Product.silverMonthly).last)
        #expect(renewal.identifier != first.identifier)
        #expect(renewal.purchaseDate == env.store.now)
        #expect(renewal.expirationDate == date(2026, 3, 1), "recovered in grace: the period started on February 1")
        #expect(renewal.originalTransactionIdentifier == first.identifier)
        #expect(env.session.allTransactions().first?.hasPurchaseIssue == false)
        #expect(env.observer.states(of: Product.silverMonthly) == [.purchasing, .purchased, .purchased])
        #expect(env.store.subscription(groupID: "main")?.phase == .active)
    }

    @Test("After the grace period ends billing retry goes on; recovering then starts a new period from that day")
    func billingRetryAfterGrace() throws {
        let env = Environment()
        env.session.shouldEnterBillingRetryOnRenewal = true
        env.session.billingGracePeriodIsEnabled = true
        env.buy(Product.silverMonthly)
        let events = try env.session.advance(to: date(2026, 3, 1))
        #expect(events.contains { $0.kind == .gracePeriodEnded && $0.date == date(2026, 2, 17) })
        #expect(env.store.subscription(groupID: "main")?.phase == .billingRetry)

        env.session.shouldEnterBillingRetryOnRenewal = false
        let recovery = try env.session.advance(to: date(2026, 4, 1))
        #expect(recovery.first?.kind == .recovered)
        let recoveredOn = date(2026, 3, 3)
        #expect(recovery.first?.date == recoveredOn, "the next attempt (day 30 of billing retry) succeeds")
        let renewal = try #require(env.transactions(of: Product.silverMonthly).last)
        #expect(renewal.purchaseDate == recoveredOn)
        #expect(renewal.expirationDate == date(2026, 4, 3))
        #expect(recovery.dropFirst().map(\.kind) == [], "next renewal on April 3")
    }

    @Test("Grace and billing retry follow the time rate")
    func billingDurationsFollowTimeRate() throws {
        let env = Environment()
        env.session.timeRate = .oneRenewalEveryTwoSeconds
        env.session.shouldEnterBillingRetryOnRenewal = true
        env.session.billingGracePeriodIsEnabled = true
        env.buy(Product.weekly)
        try env.session.advance(by: 7 * day)
        let subscription = try #require(env.store.subscription(groupID: "other"))
        let failedAt = try #require(subscription.billingIssueStartedAt)
        #expect(subscription.gracePeriodEndsAt == failedAt.addingTimeInterval(7 * day), "one period")
        #expect(subscription.billingRetryEndsAt == failedAt.addingTimeInterval(14 * day), "two periods")
    }

    @Test("Expiring a subscription ends it now, with auto-renew off")
    func expire() throws {
        let env = Environment()
        env.buy(Product.silverMonthly)
        env.clock.advance(by: 5 * day)
        try env.session.expireSubscription(productIdentifier: Product.silverMonthly)
        let record = try #require(env.transactions(of: Product.silverMonthly).first)
        #expect(record.expirationDate == env.store.now)
        #expect(!record.autoRenewingEnabled)
        #expect(env.store.subscription(groupID: "main")?.phase == .expired)
        #expect(try env.session.advance(by: 60 * day).isEmpty, "no renewal")
        #expect(throws: SKTestError(.noSubscriptionFound)) {
            try env.session.expireSubscription(productIdentifier: Product.silverMonthly)
        }
    }

    @Test("Forcing a renewal ends the period now and starts the next one")
    func forceRenewal() throws {
        let env = Environment()
        env.buy(Product.silverMonthly)
        let first = try #require(env.transactions(of: Product.silverMonthly).first)
        try env.session.disableAutoRenewForTransaction(identifier: first.identifier)
        env.clock.advance(by: 3 * day)
        try env.session.forceRenewalOfSubscription(productIdentifier: Product.silverMonthly)
        env.store.runUntilIdle()
        let history = env.transactions(of: Product.silverMonthly)
        #expect(history.count == 2)
        #expect(history[0].expirationDate == env.store.now)
        #expect(history[1].purchaseDate == env.store.now)
        #expect(history[1].expirationDate == date(2026, 2, 4))
        #expect(history[1].autoRenewingEnabled, "forcing a renewal turns auto-renew on")
        #expect(env.observer.states(of: Product.silverMonthly) == [.purchasing, .purchased, .purchased])
        #expect(
            env.observer.updates(of: Product.silverMonthly, in: .purchased).last?.originalIdentifier
                == String(first.identifier)
        )
    }

    @Test("Forcing a renewal while renewals fail enters billing retry")
    func forceRenewalIntoBillingRetry() throws {
        let env = Environment()
        env.buy(Product.silverMonthly)
        env.session.shouldEnterBillingRetryOnRenewal = true
        try env.session.forceRenewalOfSubscription(productIdentifier: Product.silverMonthly)
        #expect(env.store.subscription(groupID: "main")?.phase == .billingRetry)
        #expect(env.transactions(of: Product.silverMonthly).first?.hasPurchaseIssue == true)
    }

    @Test("With auto-renew off a subscription expires at the end of its period; on again, it renews")
    func autoRenewOffAndOn() throws {
        let env = Environment()
        env.buy(Product.silverMonthly)
        let first = try #require(env.transactions(of: Product.silverMonthly).first)
        #expect(first.autoRenewingEnabled)
        try env.session.disableAutoRenewForTransaction(identifier: first.identifier)
        #expect(env.transactions(of: Product.silverMonthly).first?.autoRenewingEnabled == false)
        try env.session.enableAutoRenewForTransaction(identifier: first.identifier)
        #expect(try env.session.advance(by: 31 * day).map(\.kind) == [.renewed])

        let current = try #require(env.transactions(of: Product.silverMonthly).last)
        try env.session.disableAutoRenewForTransaction(identifier: current.identifier)
        let events = try env.session.advance(by: 60 * day)
        #expect(events.map(\.kind) == [.expired(.autoRenewDisabled)])
        #expect(events.first?.date == date(2026, 3, 1))
        #expect(throws: SKTestError(.invalidAction), "expired") {
            try env.session.enableAutoRenewForTransaction(identifier: current.identifier)
        }
        env.buy(Product.coins)
        let coins = try #require(env.transactions(of: Product.coins).first)
        #expect(throws: SKTestError(.invalidProductType)) {
            try env.session.disableAutoRenewForTransaction(identifier: coins.identifier)
        }
    }

    @Test("A price increase consented to renews; one declined or left pending expires at the end of the period")
    func priceIncrease() throws {
        for answer in ["consent", "decline", "none"] {
            let env = Environment()
            env.buy(Product.silverMonthly)
            let first = try #require(env.transactions(of: Product.silverMonthly).first)
            #expect(throws: SKTestError(.invalidAction), "nothing pending yet") {
                try env.session.consentToPriceIncreaseForTransaction(identifier: first.identifier)
            }
            try env.session.requestPriceIncreaseConsentForTransaction(identifier: first.identifier)
            #expect(env.transactions(of: Product.silverMonthly).first?.isPendingPriceIncreaseConsent == true)
            switch answer {
            case "consent": try env.session.consentToPriceIncreaseForTransaction(identifier: first.identifier)
            case "decline": try env.session.declinePriceIncreaseForTransaction(identifier: first.identifier)
            default: break
            }
            let events = try env.session.advance(by: 31 * day)
            switch answer {
            case "consent":
                #expect(events.map(\.kind) == [.renewed])
                #expect(env.transactions(of: Product.silverMonthly).allSatisfy { !$0.isPendingPriceIncreaseConsent })
            case "decline":
                #expect(events.map(\.kind) == [.expired(.autoRenewDisabled)])
                #expect(env.transactions(of: Product.silverMonthly).first?.autoRenewingEnabled == false)
            default:
                #expect(events.map(\.kind) == [.expired(.priceIncreaseNotConsented)])
            }
        }
    }

    @Test("Refunding the current period ends the subscription and reports the revocation")
    func refundSubscription() throws {
        let env = Environment()
        env.buy(Product.silverMonthly)
        try env.session.advance(by: 40 * day)
        let history = env.transactions(of: Product.silverMonthly)
        #expect(history.count == 2)
        try env.session.refundTransaction(identifier: history[0].identifier)
        env.store.runUntilIdle()
        #expect(env.observer.revoked.isEmpty, "an earlier period: the current one still grants access")
        try env.session.refundTransaction(identifier: history[1].identifier)
        env.store.runUntilIdle()
        #expect(env.observer.revoked == [[Product.silverMonthly]])
        #expect(env.transactions(of: Product.silverMonthly).allSatisfy { $0.cancelDate != nil })
        #expect(env.store.subscription(groupID: "main")?.phase == .expired)
        #expect(try env.session.advance(by: 60 * day).isEmpty, "a refunded subscription does not renew")
    }

    @Test("Renewals reach every device of the account")
    func renewalsReachEveryDevice() throws {
        let env = Environment()
        let second = SKPaymentQueue(store: env.store, deviceID: "second-device")
        let secondObserver = Recorder()
        second.add(secondObserver)
        env.buy(Product.silverMonthly)
        try env.session.advance(by: 31 * day)
        env.store.runUntilIdle()
        #expect(secondObserver.states(of: Product.silverMonthly) == [.purchased])
        #expect(env.observer.states(of: Product.silverMonthly) == [.purchasing, .purchased, .purchased])
    }
}
