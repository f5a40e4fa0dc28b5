import Foundation
import OpenStoreKit
import StoreModels
import StoreSimulator
import Synchronization
import Testing

private let day: TimeInterval = 86_400

/// An observer that writes down, for every purchased transaction it hears of, the store's clock as the callback runs.
private final class ClockReadingObserver: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    struct Heard: Equatable {
        let identifier: String?
        let productIdentifier: String
        let transactionDate: Date?
        let clock: Date
    }

    let store: SimulatedStore
    private let log = Mutex<[Heard]>([])

    init(store: SimulatedStore) { self.store = store }

    var heard: [Heard] { log.withLock { $0 } }

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        let clock = store.now
        for transaction in transactions where transaction.transactionState == .purchased {
            log.withLock {
                $0.append(
                    Heard(
                        identifier: transaction.transactionIdentifier,
                        productIdentifier: transaction.payment.productIdentifier,
                        transactionDate: transaction.transactionDate,
                        clock: clock))
            }
        }
        for transaction in transactions where transaction.transactionState != .purchasing {
            queue.finishTransaction(transaction)
        }
    }
}

/// Two subscriptions at the same level of one group, of different durations: changing between them is a crossgrade.
private let crossgradeCatalog = StoreConfiguration(
    catalog: StoreCatalog(products: [
        ProductDefinition(
            id: "monthly",
            type: .autoRenewableSubscription,
            price: 4.99,
            subscription: SubscriptionInfo(
                groupID: "g", groupLevel: 1, period: SubscriptionPeriod(value: 1, unit: .month))
        ),
        ProductDefinition(
            id: "quarterly",
            type: .autoRenewableSubscription,
            price: 12.99,
            subscription: SubscriptionInfo(
                groupID: "g", groupLevel: 1, period: SubscriptionPeriod(value: 3, unit: .month))
        ),
    ])
)

private func payment(_ productID: String) -> SKMutablePayment {
    let payment = SKMutablePayment()
    payment.productIdentifier = productID
    return payment
}

/// An observer that buys coins each time it hears of a subscription renewal, and finishes everything.
private final class BuyOnRenewal: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    private let seen = Mutex(0)

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions where transaction.transactionState == .purchased {
            if transaction.payment.productIdentifier == "com.example.premium.monthly" {
                let count = seen.withLock { count -> Int in
                    count += 1
                    return count
                }
                if count > 1 { queue.add(payment("com.example.coins100")) }  // the first is the purchase
            }
            queue.finishTransaction(transaction)
        }
    }
}

@Suite("Renewals heard at their own time")
struct RenewalTimingTests {
    @Test("What an observer does when it hears of a renewal is replayed at the renewal's time after a relaunch")
    func durableStepsReplay() throws {
        let path = FileManager.default.temporaryDirectory.path + "/renewal-timing-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var store = try SimulatedStore(statePath: path, lane: .manual)
        let queue = SKPaymentQueue(store: store, deviceID: "device-1")
        let observer = BuyOnRenewal()
        queue.add(observer)
        queue.add(payment("com.example.premium.monthly"))
        store.runUntilIdle()
        try store.advance(by: 92 * day)
        store.runUntilIdle()
        let history = store.allTransactions()
        let coins = history.filter { $0.productID == "com.example.coins100" }
        let renewals = history.filter { $0.productID == "com.example.premium.monthly" }.dropFirst()
        #expect(coins.count == 3)
        #expect(coins.map(\.purchaseDate) == renewals.map(\.purchaseDate), "bought as each renewal was heard")
        queue.remove(observer)
        try store.close()

        store = try SimulatedStore(statePath: path, lane: .manual)
        #expect(store.allTransactions() == history)
        #expect(store.now == ManualClock.defaultStart.addingTimeInterval(92 * day))
        try store.close()
    }

    @Test("Over a three-month advance, an observer reading the store's clock sees each renewal's own date")
    func observerSeesEachRenewalDate() throws {
        let store = SimulatedStore(lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let observer = ClockReadingObserver(store: store)
        queue.add(observer)
        queue.add(payment("com.example.premium.monthly"))
        store.runUntilIdle()
        let start = store.now
        try store.advance(by: 92 * day)
        store.runUntilIdle()
        #expect(store.now == start.addingTimeInterval(92 * day))

        let renewals = observer.heard.dropFirst()  // the first is the purchase
        // A week of free trial, then monthly: renewals on Jan 8, Feb 8, Mar 8, Apr 1 is the end.
        try #require(renewals.count == 3)
        let dates = renewals.compactMap(\.transactionDate)
        #expect(dates.count == 3)
        #expect(Set(dates).count == 3, "each renewal has its own date")
        for renewal in renewals {
            #expect(renewal.clock == renewal.transactionDate, "the clock shows the renewal's date as it is heard")
        }
        #expect(dates.first == start.addingTimeInterval(7 * day))
    }

    @Test("Change observers hear renewal failures, grace periods and expiries at their own time")
    func changeObserverTiming() throws {
        let store = SimulatedStore(lane: .manual)
        let heard = Mutex<[(kind: String, date: Date, clock: Date)]>([])
        let token = store.addChangeObserver { [store] change in
            heard.withLock { $0.append((change.kindName, change.date, store.now)) }
        }
        let purchase = try store.buyProduct("com.example.premium.monthly")
        store.runUntilIdle()
        store.updateSettings {
            $0.billingRetryOnRenewal = true
            $0.billingGracePeriodEnabled = true
        }
        let events = try store.advance(by: 120 * day)
        store.runUntilIdle()
        let seen = heard.withLock { $0 }
        // The renewal failure and the start of its grace period are one change.
        let expected =
            ["subscribed"]
            + events.map(\.kindName).filter { $0 != "gracePeriodStarted" }.map {
                $0 == "renewalFailed" ? "renewalFailed(gracePeriod)" : $0
            }
        #expect(seen.map(\.kind) == expected)
        #expect(seen.map(\.kind).contains("renewalFailed(gracePeriod)"))
        #expect(seen.map(\.kind).contains("gracePeriodEnded"))
        #expect(seen.map(\.kind).contains { $0.hasPrefix("expired") })
        for event in seen { #expect(event.clock == event.date, "\(event.kind)") }
        #expect(Set(seen.map(\.date)).count > 1, "the events fall at several instants")

        store.removeChangeObserver(token)
        store.updateSettings { $0.billingRetryOnRenewal = false }
        _ = try store.buyProduct("com.example.premium.monthly")
        try store.advance(by: 60 * day)
        store.runUntilIdle()
        #expect(heard.withLock { $0.count } == seen.count, "a removed observer hears nothing more")
        _ = purchase
    }

    @Test("Resolving an interrupted crossgrade reports the product bought, as a direct crossgrade does")
    func interruptedCrossgradeReportsProductBought() throws {
        let store = SimulatedStore(configuration: crossgradeCatalog, lane: .manual)
        let queue = SKPaymentQueue(store: store)
        let observer = ClockReadingObserver(store: store)
        queue.add(observer)
        queue.add(payment("monthly"))
        store.runUntilIdle()
        #expect(observer.heard.map(\.productIdentifier) == ["monthly"])

        // The direct crossgrade: reported as the product bought.
        queue.add(payment("quarterly"))
        store.runUntilIdle()
        #expect(observer.heard.map(\.productIdentifier) == ["monthly", "quarterly"])

        // The same crossgrade, interrupted and then resolved.
        store.updateSettings { $0.interruptedPurchasesEnabled = true }
        queue.add(payment("quarterly"))
        store.runUntilIdle()
        store.updateSettings { $0.interruptedPurchasesEnabled = false }
        let interrupted = try #require(
            store.allTransactions().last { $0.state == .failed && $0.hasPurchaseIssue })
        #expect(interrupted.productID == "quarterly")
        try store.resolveIssue(interrupted.id)
        store.runUntilIdle()
        let resolved = try #require(observer.heard.last)
        #expect(observer.heard.count == 3)
        #expect(resolved.productIdentifier == "quarterly", "the new transaction is for the product bought")
        #expect(store.subscription(groupID: "g")?.renewalProductID == "quarterly")
    }
}
