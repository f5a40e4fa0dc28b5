import Foundation
import ReceiptKit
import StoreModels
import Synchronization
import TestSupport
import Testing

@testable import StoreSimulator

private let day: TimeInterval = 86_400

/// Keeps every change a store tells, in order.
private final class ChangeLog: Sendable {
    private final class Box: Sendable {
        let changes = Mutex<[StoreChange]>([])
    }

    private let box = Box()
    let token: ChangeObserverToken

    init(_ store: SimulatedStore) {
        let box = self.box
        token = store.addChangeObserver { change in box.changes.withLock { $0.append(change) } }
    }

    var all: [StoreChange] { box.changes.withLock { $0 } }
    var names: [String] { all.map(\.kindName) }
}

@Suite("The store's change feed")
struct StoreChangeTests {
    @Test("Every change made directly on the store is told once, in order, with its subscription as it stood")
    func everyChangeInOrder() throws {
        let store = SimulatedStore(lane: .manual)
        let log = ChangeLog(store)
        let (device, listener) = store.silentConnection("phone")
        _ = device.submit(PaymentRequest(productID: "com.example.coins100"))
        store.runUntilIdle()
        let monthly = try store.buyProduct("com.example.premium.monthly")
        try store.setAutoRenew(false, transactionID: monthly.id)
        try store.setAutoRenew(false, transactionID: monthly.id)  // no change: nothing told
        try store.setAutoRenew(true, transactionID: monthly.id)
        try store.requestPriceIncreaseConsent(monthly.id)
        try store.consentToPriceIncrease(monthly.id)
        let yearly = try store.buyProduct("com.example.premium.yearly")  // a higher level: at once
        _ = try store.buyProduct("com.example.premium.monthly")  // a lower level: at the next renewal
        _ = try store.buyProduct("com.example.premium.yearly")  // back to the current product
        try store.refund(yearly.id, reason: .developerIssue)
        _ = try store.buyProduct("com.example.premium.monthly")
        store.runUntilIdle()
        #expect(
            log.names == [
                "oneTimePurchase", "subscribed", "autoRenewDisabled", "autoRenewEnabled", "priceIncreaseRequested",
                "priceIncreaseConsented", "upgraded(from: com.example.premium.monthly)",
                "renewalProductChanged(to: com.example.premium.monthly)",
                "renewalProductChanged(to: com.example.premium.yearly)", "refunded(developerIssue)", "resubscribed",
            ])
        let changes = log.all
        try #require(changes.count == 11)
        #expect(changes[0].transaction.deviceID == "phone")
        #expect(changes[0].subscription == nil)
        #expect(changes[2].subscription?.autoRenew == false, "the subscription as it stood after the change")
        #expect(changes[3].subscription?.autoRenew == true)
        #expect(changes[4].subscription?.pendingPriceIncrease == true)
        #expect(changes[6].transaction.id == yearly.id)
        #expect(changes[7].subscription?.renewalProductID == "com.example.premium.monthly")
        #expect(changes[9].transaction.cancellationDate == store.now)
        #expect(changes[9].transaction.revocationReason == .developerIssue)
        #expect(changes[9].subscription?.phase == .expired)
        #expect(changes[10].subscription?.phase == .active)
        _ = listener
    }

    @Test("A year of renewals is twelve changes, each with its own period and date, told at its own time")
    func aYearOfRenewals() throws {
        let store = SimulatedStore(lane: .manual)
        _ = try store.buyProduct("com.example.premium.yearly")
        let monthly = try store.buyProduct("com.example.premium.monthly", account: "monthly")
        store.runUntilIdle()
        let clocks = Mutex<[Date]>([])
        let log = ChangeLog(store)
        let token = store.addChangeObserver { [store] _ in clocks.withLock { $0.append(store.now) } }
        defer { store.removeChangeObserver(token) }
        try store.advance(by: 360 * day)
        store.runUntilIdle()
        let renewals = log.all.filter { $0.account == "monthly" }
        // The week's free trial, then eleven months.
        #expect(renewals.map(\.kindName) == Array(repeating: "renewed", count: 12))
        #expect(Set(renewals.map(\.transaction.id)).count == 12)
        #expect(renewals.allSatisfy { $0.transaction.originalID == monthly.id })
        #expect(renewals.allSatisfy { $0.date == $0.transaction.purchaseDate })
        #expect(renewals.allSatisfy { $0.subscription?.expiresAt == $0.transaction.expirationDate })
        let expiries = renewals.compactMap(\.transaction.expirationDate)
        #expect(expiries == expiries.sorted() && Set(expiries).count == 12)
        #expect(clocks.withLock { $0 } == log.all.map(\.date), "the clock shows each change's time as it is told")
    }

    @Test("A renewal signed from its change keeps its own expiry and date after the store moved on")
    func signedAtTheChange() throws {
        let store = SimulatedStore(lane: .manual)
        _ = try store.buyProduct("com.example.premium.monthly")
        store.runUntilIdle()
        let log = ChangeLog(store)
        try store.advance(by: 100 * day)  // three renewals: the first is told, and signed, after the store moved on
        store.runUntilIdle()
        let first = try #require(log.all.first)
        let transaction = try store.signedTransactionValue(of: first).payload
        #expect(transaction.transactionId == String(first.transaction.id))
        #expect(transaction.signedDate == JWSDate(first.date))
        #expect(transaction.expiresDate == first.transaction.expirationDate.map(JWSDate.init))
        let renewal = try #require(try store.signedRenewalInfoValue(of: first)?.payload)
        #expect(renewal.renewalDate == first.transaction.expirationDate.map(JWSDate.init))
        #expect(renewal.signedDate == JWSDate(first.date))
        let now = try store.signedRenewalInfoValue(originalTransactionID: first.transaction.originalID).payload
        #expect(now.renewalDate != renewal.renewalDate, "the store moved on since")
    }

    @Test("Billing issues, grace periods, recoveries and expiries are told as the store applies them")
    func billingChanges() throws {
        let store = SimulatedStore(lane: .manual)
        let log = ChangeLog(store)
        let monthly = try store.buyProduct("com.example.premium.monthly")
        store.updateSettings {
            $0.billingRetryOnRenewal = true
            $0.billingGracePeriodEnabled = true
        }
        try store.advance(by: 7 * day)
        _ = try store.resolveIssue(monthly.id)
        try store.setAutoRenew(false, transactionID: monthly.id)
        try store.advance(by: 40 * day)
        store.runUntilIdle()
        #expect(
            log.names == [
                "subscribed", "renewalFailed(gracePeriod)", "billingRecovered", "autoRenewDisabled",
                "expired(autoRenewDisabled)",
            ])
        try #require(log.all.count == 5)
        #expect(log.all[1].subscription?.phase == .gracePeriod)
        #expect(log.all[2].transaction.id != monthly.id)
    }

    @Test("Nobody observing: nothing is kept, and removing the last observer drops what was not told")
    func nothingKeptWithoutObservers() throws {
        let store = SimulatedStore(lane: .manual)
        _ = try store.buyProduct("com.example.premium.monthly")
        try store.advance(by: 100 * day)
        #expect(store.state.withLock { $0.changes.changes.isEmpty && !$0.changes.isObserved })
        #expect(!store.hasChangeObservers)
        let log = ChangeLog(store)
        _ = try store.buyProduct("com.example.coins100")
        #expect(store.state.withLock { $0.changes.changes.count } == 1, "kept until the lane runs")
        store.removeChangeObserver(log.token)
        #expect(store.state.withLock { $0.changes.changes.isEmpty && !$0.changes.isObserved })
        store.runUntilIdle()
        #expect(log.all.isEmpty, "a removed observer hears nothing more")
    }

    @Test("A durable store reopened tells nothing of the changes its journal replays")
    func replayTellsNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        do {
            let store = try SimulatedStore(statePath: path, lane: .manual)
            let log = ChangeLog(store)
            let monthly = try store.buyProduct("com.example.premium.monthly")
            try store.advance(by: 20 * day)
            try store.refund(monthly.id)
            store.runUntilIdle()
            #expect(log.names == ["subscribed", "renewed", "refunded(other)"])
            try store.close()
        }
        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        let log = ChangeLog(reopened)
        reopened.runUntilIdle()
        #expect(reopened.transactions().count == 2, "the journal was replayed")
        #expect(log.all.isEmpty)
        _ = try reopened.buyProduct("com.example.coins100")
        reopened.runUntilIdle()
        #expect(log.names == ["oneTimePurchase"])
        try reopened.close()
    }

    @Test("Refund requests and declines are journaled changes: told once, replayed silently, refused when refunded")
    func refundRequests() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let coinsID: UInt64
        do {
            let store = try SimulatedStore(statePath: path, lane: .manual)
            let log = ChangeLog(store)
            let coins = try store.buyProduct("com.example.coins100")
            coinsID = coins.id
            try store.requestRefund(coins.id, reason: .unintendedPurchase)
            try store.declineRefund(coins.id)
            store.runUntilIdle()
            #expect(log.names == ["oneTimePurchase", "refundRequested(UNINTENDED_PURCHASE)", "refundDeclined"])
            #expect(store.transaction(coins.id)?.cancellationDate == nil, "a declined refund leaves it purchased")
            try store.close()
        }
        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        let log = ChangeLog(reopened)
        reopened.runUntilIdle()
        #expect(log.all.isEmpty)
        try reopened.refund(coinsID)
        let refused = #expect(throws: StoreSimulatorError.self) { try reopened.requestRefund(coinsID) }
        #expect(refused?.code == .invalidAction)
        #expect(throws: StoreSimulatorError.self) { try reopened.declineRefund(42) }
        reopened.runUntilIdle()
        #expect(log.names == ["refunded(other)"])
        try reopened.close()
    }

    @Test("A promotional offer redeemed on the active subscription begins at its next renewal")
    func offerOnTheActiveSubscription() throws {
        let store = SimulatedStore(lane: .manual)
        let log = ChangeLog(store)
        let (device, listener) = store.silentConnection("phone")
        _ = device.submit(PaymentRequest(productID: "com.example.premium.monthly"))
        store.runUntilIdle()
        let offerID = "com.example.premium.monthly.winback"
        _ = device.submit(
            PaymentRequest(
                productID: "com.example.premium.monthly",
                discount: DiscountRequest(
                    offerID: offerID, keyID: "KEY", nonce: "nonce-1", signature: "c2lnbmF0dXJl",
                    timestamp: JWSDate(store.now).millisecondsSince1970)))
        store.runUntilIdle()
        #expect(log.names == ["subscribed", "offerRedeemed(\(offerID), sameProduct)"])
        #expect(log.all.last?.subscription?.offer?.identifier == offerID)
        try store.advance(by: 100 * day)
        store.runUntilIdle()
        let renewals = log.all.filter { $0.kind == .renewed }.map(\.transaction)
        #expect(
            renewals.map(\.promotionalOfferID) == [offerID, offerID, offerID, nil],
            "three months of the offer, then not")
        let offerPrice = Decimal(string: "1.99")
        #expect(
            renewals.map { store.amountCharged(forTransaction: $0.id) } == [
                offerPrice, offerPrice, offerPrice, Decimal(string: "4.99"),
            ])
        _ = listener
    }

    @Test("Changes made from several threads at once are told in the order the store applied them")
    func storeOrderAcrossThreads() async throws {
        let store = SimulatedStore(lane: .dispatch(DispatchQueue(label: "store-change-tests")))
        let log = ChangeLog(store)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for _ in 0..<100 { _ = try? store.buyProduct("com.example.coins100", account: "account-\(thread)") }
        }
        try await bounded("the store's lane") { await store.idle() }
        let told = log.all.map(\.transaction.id)
        #expect(told.count == 400)
        // Identifiers are given in the order purchases are applied.
        #expect(told == told.sorted())
        #expect(told == store.allTransactions().map(\.id))
    }
}
