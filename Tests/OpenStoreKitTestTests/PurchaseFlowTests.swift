import Foundation
import OpenStoreKit
import OpenStoreKitTest
import StoreModels
import StoreSimulator
import Synchronization
import Testing

@Suite("Test session: purchase flows")
struct PurchaseFlowTests {
    @Test("Ask to Buy approved: purchasing, deferred, then purchased for the same transaction")
    func askToBuyApproved() throws {
        let env = Environment()
        env.session.askToBuyEnabled = true
        env.buy(Product.pro)
        #expect(env.observer.states(of: Product.pro) == [.purchasing, .deferred])
        let pending = try #require(env.session.allTransactions().first)
        #expect(pending.pendingAskToBuyConfirmation)
        #expect(pending.state == .deferred)

        env.clock.advance(by: 3_600)
        try env.session.approveAskToBuyTransaction(identifier: pending.identifier)
        env.store.runUntilIdle()
        #expect(env.observer.states(of: Product.pro) == [.purchasing, .deferred, .purchased])
        let approved = try #require(env.observer.updates(of: Product.pro, in: .purchased).first)
        #expect(approved.transactionIdentifier == String(pending.identifier))
        #expect(approved.transactionDate == env.store.now, "charged when approved")
        let record = try #require(env.session.allTransactions().first)
        #expect(record.state == .purchased)
        #expect(!record.pendingAskToBuyConfirmation)
        #expect(throws: SKTestError(.invalidAction)) {
            try env.session.approveAskToBuyTransaction(identifier: pending.identifier)
        }
    }

    @Test("Ask to Buy declined: nothing more is reported and the transaction leaves the queue")
    func askToBuyDeclined() throws {
        let env = Environment()
        env.session.askToBuyEnabled = true
        env.buy(Product.pro)
        let pending = try #require(env.session.allTransactions().first)
        #expect(env.queue.transactions.count == 1)
        try env.session.declineAskToBuyTransaction(identifier: pending.identifier)
        env.store.runUntilIdle()
        #expect(env.observer.states(of: Product.pro) == [.purchasing, .deferred])
        #expect(env.queue.transactions.isEmpty)
        #expect(env.session.allTransactions().first?.state == .failed)
        #expect(throws: SKTestError(.invalidAction)) {
            try env.session.declineAskToBuyTransaction(identifier: pending.identifier)
        }
    }

    @Test("An interrupted purchase fails, and once resolved a new purchase of the same product and quantity arrives")
    func interruptedPurchase() throws {
        let env = Environment()
        env.session.interruptedPurchasesEnabled = true
        env.buy(Product.coins, quantity: 3)
        #expect(env.observer.states(of: Product.coins) == [.purchasing, .failed])
        let failedUpdate = try #require(env.observer.updates(of: Product.coins, in: .failed).first)
        #expect(failedUpdate.errorCode == .paymentCancelled)
        let failed = try #require(env.session.allTransactions().first)
        #expect(failed.hasPurchaseIssue)
        #expect(failed.state == .failed)

        try env.session.resolveIssueForTransaction(identifier: failed.identifier)
        env.store.runUntilIdle()
        #expect(env.observer.states(of: Product.coins) == [.purchasing, .failed, .purchased])
        let purchased = try #require(env.observer.updates(of: Product.coins, in: .purchased).first)
        #expect(purchased.quantity == 3)
        #expect(purchased.transactionIdentifier != String(failed.identifier), "a new transaction")
        let history = env.session.allTransactions()
        #expect(history.map(\.state) == [.failed, .purchased])
        #expect(history.first?.hasPurchaseIssue == false)
        #expect(env.queue.transactions.isEmpty, "both were finished")
        #expect(throws: SKTestError(.invalidAction)) {
            try env.session.resolveIssueForTransaction(identifier: failed.identifier)
        }
    }

    @Test("The resolved purchase goes to the device that failed, not to the account's other devices")
    func interruptedPurchaseResolvedOnItsDevice() throws {
        let env = Environment()
        let otherDevice = SKPaymentQueue(store: env.store, deviceID: "second-device")
        let otherObserver = Recorder()
        otherDevice.add(otherObserver)
        env.session.interruptedPurchasesEnabled = true
        env.buy(Product.pro)
        let failed = try #require(env.session.allTransactions().first)
        try env.session.resolveIssueForTransaction(identifier: failed.identifier)
        env.store.runUntilIdle()
        #expect(env.observer.states(of: Product.pro).last == .purchased)
        #expect(otherObserver.updates.isEmpty)
    }

    @Test("A purchase made outside the app arrives through the queue as purchased, without purchasing")
    func buyProductOutsideTheApp() throws {
        let env = Environment()
        let otherDevice = SKPaymentQueue(store: env.store, deviceID: "second-device")
        let otherObserver = Recorder()
        otherDevice.add(otherObserver)
        let otherAccount = SKPaymentQueue(store: env.store, deviceID: "third-device", account: "someone-else")
        let otherAccountObserver = Recorder()
        otherAccount.add(otherAccountObserver)

        try env.session.buyProduct(productIdentifier: Product.pro)
        env.store.runUntilIdle()
        #expect(env.observer.states(of: Product.pro) == [.purchased])
        #expect(otherObserver.states(of: Product.pro) == [.purchased], "every device of the account")
        #expect(otherAccountObserver.updates.isEmpty)
        let record = try #require(env.session.allTransactions().first)
        #expect(env.observer.updates.first?.transactionIdentifier == String(record.identifier))
        #expect(env.queue.transactions.isEmpty, "the observer finished it")
        #expect(throws: SKTestError(.invalidProductIdentifier)) {
            try env.session.buyProduct(productIdentifier: "test.unknown")
        }
    }

    @Test("A refunded non-consumable gets a cancellation date and its revocation is reported")
    func refundNonConsumable() throws {
        let env = Environment()
        env.buy(Product.pro)
        let purchase = try #require(env.session.allTransactions().first)
        #expect(purchase.cancelDate == nil)
        env.clock.advance(by: day)
        try env.session.refundTransaction(identifier: purchase.identifier)
        env.store.runUntilIdle()
        #expect(env.observer.revoked == [[Product.pro]])
        let refunded = try #require(env.session.allTransactions().first)
        #expect(refunded.cancelDate == env.store.now)
        #expect(env.store.transaction(UInt64(refunded.identifier))?.revocationReason == .other)
        #expect(throws: SKTestError(.invalidAction), "refunded twice") {
            try env.session.refundTransaction(identifier: purchase.identifier)
        }
        env.queue.restoreCompletedTransactions()
        env.store.runUntilIdle()
        #expect(env.observer.states(of: Product.pro) == [.purchasing, .purchased], "nothing left to restore")
    }

    @Test("A refunded consumable is marked, with no revocation callback")
    func refundConsumable() throws {
        let env = Environment()
        env.buy(Product.coins)
        let purchase = try #require(env.session.allTransactions().first)
        try env.session.refundTransaction(identifier: purchase.identifier)
        env.store.runUntilIdle()
        #expect(env.observer.revoked.isEmpty)
        #expect(env.session.allTransactions().first?.cancelDate != nil)
    }

    @Test("Changing the storefront is announced, and the queue reports the new one")
    func storefrontChange() throws {
        let env = Environment()
        #expect(env.session.storefront == "USA")
        env.session.storefront = "ESP"
        env.store.runUntilIdle()
        #expect(env.observer.storefronts == ["ESP"])
        #expect(env.queue.storefront?.countryCode == "ESP")
        #expect(env.queue.storefront?.identifier == "143454")
        #expect(env.session.storefront == "ESP")
    }

    @Test("A storefront change during a purchase asks the delegate, whose refusal fails the purchase")
    func storefrontChangeDuringPurchase() throws {
        for answer in [true, false] {
            let env = Environment()
            let delegate = StorefrontDelegate(answer: answer)
            env.queue.delegate = delegate
            let payment = SKMutablePayment()
            payment.productIdentifier = Product.pro
            env.queue.add(payment)
            env.session.storefront = "FRA"
            env.store.runUntilIdle()
            #expect(delegate.asked == ["FRA"])
            #expect(env.observer.storefronts == ["FRA"])
            if answer {
                #expect(env.observer.states(of: Product.pro) == [.purchasing, .purchased])
            } else {
                #expect(env.observer.states(of: Product.pro) == [.purchasing, .failed])
                #expect(env.observer.updates.last?.errorCode == .storeProductNotAvailable)
            }
        }
    }

    @Test("Deleting a subscription's first transaction deletes its renewals and stops the subscription")
    func deleteTransactionCascades() throws {
        let env = Environment()
        env.buy(Product.silverMonthly)
        env.buy(Product.pro)
        try env.session.advance(by: 65 * day)
        env.store.runUntilIdle()
        #expect(env.transactions(of: Product.silverMonthly).count == 3)
        let first = try #require(env.transactions(of: Product.silverMonthly).first)
        try env.session.deleteTransaction(identifier: first.identifier)
        #expect(env.transactions(of: Product.silverMonthly).isEmpty)
        #expect(env.transactions(of: Product.pro).count == 1, "other purchases stay")
        let events = try env.session.advance(by: 90 * day)
        #expect(events.isEmpty, "a deleted subscription no longer renews")
        #expect(env.transactions(of: Product.silverMonthly).isEmpty)
        #expect(throws: SKTestError(.noTransactionFound)) {
            try env.session.deleteTransaction(identifier: first.identifier)
        }
    }

    @Test("Deleting a transaction removes it from the queue of a device that has not finished it")
    func deleteUnfinished() throws {
        let env = Environment(policy: .keep)
        env.buy(Product.pro)
        let record = try #require(env.session.allTransactions().first)
        #expect(env.queue.transactions.count == 1)
        try env.session.deleteTransaction(identifier: record.identifier)
        env.store.runUntilIdle()
        #expect(env.queue.transactions.isEmpty)
    }

    @Test("Clearing transactions empties the history, so a non-consumable can be bought again, and stops renewals")
    func clearTransactions() throws {
        let env = Environment()
        env.buy(Product.pro)
        env.buy(Product.silverMonthly)
        env.session.clearTransactions()
        #expect(env.session.allTransactions().isEmpty)
        #expect(try env.session.advance(by: 40 * day).isEmpty)
        env.buy(Product.pro)
        let again = env.session.allTransactions()
        #expect(again.map(\.productIdentifier) == [Product.pro], "charged again")
        env.buy(Product.silverMonthly)
        #expect(env.transactions(of: Product.silverMonthly).count == 1, "a new subscription starts")
    }

    @Test("Failing transactions fail every purchase with the chosen error")
    func failTransactions() throws {
        let env = Environment()
        env.session.failTransactionsEnabled = true
        env.session.failureError = .invalidOfferPrice
        #expect(env.session.failureError == .invalidOfferPrice)
        env.buy(Product.coins)
        #expect(env.observer.states(of: Product.coins) == [.purchasing, .failed])
        #expect(env.observer.updates.last?.errorCode == .invalidOfferPrice)
        env.session.failTransactionsEnabled = false
        env.buy(Product.coins)
        #expect(env.observer.states(of: Product.coins).last == .purchased)
    }

    @Test("Simulated errors fail loading products, purchases and restores with their SKError codes")
    func simulatedErrors() throws {
        let env = Environment()
        for api in SKTestSession.FailableAPI.allCases { #expect(env.session.simulatedError(forAPI: api) == nil) }

        env.session.setSimulatedError(SKError(.cloudServiceNetworkConnectionFailed), forAPI: .loadProducts)
        let request = SKProductsRequest(productIdentifiers: [Product.coins], store: env.store)
        let delegate = ProductsDelegate()
        request.delegate = delegate
        request.start()
        env.store.runUntilIdle()
        #expect(delegate.outcomes == ["failed 7"])

        env.session.setSimulatedError(SKError(.paymentNotAllowed), forAPI: .purchase)
        env.buy(Product.coins)
        #expect(env.observer.states(of: Product.coins) == [.purchasing, .failed])
        #expect(env.observer.updates.last?.errorCode == .paymentNotAllowed)

        env.session.setSimulatedError(SKError(.cloudServiceRevoked), forAPI: .restore)
        env.queue.restoreCompletedTransactions()
        env.store.runUntilIdle()
        #expect(env.observer.restores == ["failed 8"])

        env.session.setSimulatedError(SKError(.clientInvalid), forAPI: .receiptRefresh)
        #expect(env.session.simulatedError(forAPI: .receiptRefresh)?.code == .clientInvalid)
        #expect(env.store.settings.simulatedErrors[.receiptRefresh]?.code == .clientInvalid)

        for api in SKTestSession.FailableAPI.allCases { env.session.setSimulatedError(nil, forAPI: api) }
        let retry = SKProductsRequest(productIdentifiers: [Product.coins], store: env.store)
        retry.delegate = delegate
        retry.start()
        env.buy(Product.coins)
        env.queue.restoreCompletedTransactions()
        env.store.runUntilIdle()
        #expect(delegate.outcomes == ["failed 7", "received 1", "finished"])
        #expect(env.observer.states(of: Product.coins).suffix(2) == [.purchasing, .purchased])
        #expect(env.observer.restores == ["failed 8", "finished"])
    }

    @Test("The locale picks the titles products requests return")
    func locale() throws {
        let env = Environment()
        #expect(env.session.locale.identifier == "en_US")
        env.session.locale = Locale(identifier: "es_ES")
        let request = SKProductsRequest(productIdentifiers: [Product.coins], store: env.store)
        let delegate = ProductsDelegate()
        request.delegate = delegate
        request.start()
        env.store.runUntilIdle()
        #expect(delegate.titles == ["Monedas"])
    }

    @Test("Settings round-trip and resetToDefaultState puts back the configuration's")
    func settingsAndReset() throws {
        var defaults = StoreSettings()
        defaults.askToBuyEnabled = true
        defaults.storefront = Storefront(countryCode: "GBR")
        defaults.timeRate = TimeRate.monthlyRenewalEveryFiveMinutes.rawValue
        let store = SimulatedStore(lane: .manual)
        let session = SKTestSession(
            configuration: StoreConfiguration(catalog: testConfiguration.catalog, settings: defaults),
            store: store
        )
        #expect(session.askToBuyEnabled)
        #expect(session.storefront == "GBR")
        #expect(session.timeRate == .monthlyRenewalEveryFiveMinutes)

        session.askToBuyEnabled = false
        session.disableDialogs = true
        session.interruptedPurchasesEnabled = true
        session.shouldEnterBillingRetryOnRenewal = true
        session.billingGracePeriodIsEnabled = true
        session.storefront = "JPN"
        session.locale = Locale(identifier: "ja_JP")
        session.timeRate = .oneRenewalEveryTwoSeconds
        session.failTransactionsEnabled = true
        session.failureError = .invalidSignature
        #expect(!session.askToBuyEnabled)
        #expect(session.disableDialogs)
        #expect(session.interruptedPurchasesEnabled)
        #expect(session.shouldEnterBillingRetryOnRenewal)
        #expect(session.billingGracePeriodIsEnabled)
        #expect(session.storefront == "JPN")
        #expect(session.locale.identifier == "ja_JP")
        #expect(session.timeRate == .oneRenewalEveryTwoSeconds)
        #expect(session.failTransactionsEnabled)
        #expect(session.failureError == .invalidSignature)

        session.resetToDefaultState()
        #expect(session.askToBuyEnabled)
        #expect(!session.disableDialogs)
        #expect(!session.interruptedPurchasesEnabled)
        #expect(!session.shouldEnterBillingRetryOnRenewal)
        #expect(!session.billingGracePeriodIsEnabled)
        #expect(session.storefront == "GBR")
        #expect(session.locale.identifier == "en_US")
        #expect(session.timeRate == .monthlyRenewalEveryFiveMinutes)
        #expect(!session.failTransactionsEnabled)
        #expect(session.failureError == .unknown)
    }

    @Test("Every time rate keeps Apple's raw value", arguments: SKTestSession.TimeRate.allCases)
    func timeRates(rate: SKTestSession.TimeRate) {
        let env = Environment()
        env.session.timeRate = rate
        #expect(env.session.timeRate == rate)
        #expect(env.store.settings.timeRate == rate.rawValue)
        #expect(SKTestSession.TimeRate(rawValue: rate.rawValue) == rate)
    }

    @Test("Time rates have StoreKit Test's raw values")
    func timeRateRawValues() {
        let expected: [SKTestSession.TimeRate: Int] = [
            .realTime: 0, .oneHourIsOneDay: 1, .thirtyMinutesIsOneDay: 2, .fiveMinutesIsOneDay: 3,
            .oneMinuteIsOneDay: 4, .thirtySecondsIsOneDay: 5, .oneSecondIsOneDay: 6, .monthlyRenewalEveryHour: 10,
            .monthlyRenewalEveryThirtyMinutes: 11, .monthlyRenewalEveryFifteenMinutes: 12,
            .monthlyRenewalEveryFiveMinutes: 13, .monthlyRenewalEveryThirtySeconds: 15,
            .oneRenewalEveryFifteenMinutes: 1000, .oneRenewalEveryFiveMinutes: 1001, .oneRenewalEveryMinute: 1002,
            .oneRenewalEveryThirtySeconds: 1003, .oneRenewalEveryTenSeconds: 1004, .oneRenewalEveryTwoSeconds: 1005,
        ]
        #expect(SKTestSession.TimeRate.allCases.count == expected.count)
        for (rate, raw) in expected { #expect(rate.rawValue == raw, "\(rate)") }
        #expect(SKTestSession.TimeRate(rawValue: 14) == nil)
    }
}

private final class StorefrontDelegate: NSObject, SKPaymentQueueDelegate, @unchecked Sendable {
    let answer: Bool
    private let log = Mutex<[String]>([])
    init(answer: Bool) { self.answer = answer }
    var asked: [String] { log.withLock { $0 } }

    func paymentQueue(
        _ paymentQueue: SKPaymentQueue,
        shouldContinue transaction: SKPaymentTransaction,
        in newStorefront: SKStorefront
    ) -> Bool {
        log.withLock { $0.append(newStorefront.countryCode) }
        return answer
    }
}

final class ProductsDelegate: NSObject, SKProductsRequestDelegate, @unchecked Sendable {
    private let log = Mutex<(outcomes: [String], titles: [String])>(([], []))
    var outcomes: [String] { log.withLock { $0.outcomes } }
    var titles: [String] { log.withLock { $0.titles } }

    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        log.withLock {
            $0.outcomes.append("received \(response.products.count)")
            $0.titles.append(contentsOf: response.products.map(\.localizedTitle))
        }
    }

    func requestDidFinish(_ request: SKRequest) {
        log.withLock { $0.outcomes.append("finished") }
    }

    func request(_ request: SKRequest, didFailWithError error: any Error) {
        let code = (error as? SKError)?.code.rawValue ?? -1
        log.withLock { $0.outcomes.append("failed \(code)") }
    }
}
