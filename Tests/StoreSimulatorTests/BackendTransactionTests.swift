import Foundation
import Ledger
import ReceiptKit
import StoreModels
import Synchronization
import TestSupport
import Testing

@testable import StoreSimulator

/// What a developer's server changes on a transaction through the App Store Server API: its app account token (Set App
/// Account Token) and whether a device still holds it unfinished (Finish Transaction).
@Suite("App account tokens and transactions finished by a developer's server")
struct BackendTransactionTests {
    static let monthly = "com.example.premium.monthly"
    static let token = UUID(uuidString: "6B29FC40-CA47-1067-B31D-00DD010662DA")!

    @Test("A token set on a subscription is its current period's and its later renewals', not its past periods'")
    func tokenFollowsTheSubscription() throws {
        let store = SimulatedStore(lane: .manual)
        let original = try store.buyProduct(Self.monthly)
        try store.advance(by: 8 * 86_400)  // the trial ends: a renewal
        let current = try #require(store.subscriptions().first?.latestRecordID)
        let carrier = try store.setAppAccountToken(Self.token, originalTransactionID: original.id)
        #expect(carrier.id == current)
        try store.advance(by: 31 * 86_400)
        let later = try #require(store.subscriptions().first?.latestRecordID)
        #expect(later != current)
        let lowercase = Self.token.uuidString.lowercased()
        #expect(store.transaction(original.id)?.applicationUsername == nil)
        #expect(store.transaction(current)?.applicationUsername == lowercase)
        #expect(store.transaction(later)?.applicationUsername == lowercase)
        #expect(
            try store.signedRenewalInfoValue(originalTransactionID: original.id).payload.appAccountToken == lowercase)
    }

    @Test("Setting a token refuses an unknown transaction, a later one of a purchase, and a family member's share")
    func tokenRefusals() throws {
        let store = SimulatedStore(lane: .manual)
        let original = try store.buyProduct(Self.monthly)
        try store.advance(by: 8 * 86_400)
        let renewal = try #require(store.subscriptions().first?.latestRecordID)
        try store.joinFamily("smiths", accounts: [SimulatedStore.defaultAccount, "bob"])
        _ = try store.buyProduct("com.example.pro")
        let shared = try #require(store.allTransactions().first { $0.isFamilyShared })
        let before = store.allTransactions()
        #expect(throws: StoreSimulatorError(.unknownTransaction, "")) {
            try store.setAppAccountToken(Self.token, originalTransactionID: 42)
        }
        #expect(throws: StoreSimulatorError(.invalidAction, "")) {
            try store.setAppAccountToken(Self.token, originalTransactionID: renewal)
        }
        #expect(throws: StoreSimulatorError(.invalidAction, "")) {
            try store.setAppAccountToken(Self.token, originalTransactionID: shared.id)
        }
        #expect(store.allTransactions() == before)
        #expect(try store.setAppAccountToken(Self.token, originalTransactionID: original.id).id == renewal)
    }

    @Test("Finishing a transaction takes it off every device that holds it, and its front ends hear it removed")
    func finishEverywhere() throws {
        let store = SimulatedStore(lane: .manual)
        let listener = EventRecorder()
        let phone = store.connect(deviceID: "phone", frontEnd: "tests", listener: listener)
        let (tablet, quiet) = store.silentConnection("tablet")
        let coins = phone.submit(PaymentRequest(productID: "com.example.coins100"))
        let pro = phone.submit(PaymentRequest(productID: "com.example.pro"))
        store.runUntilIdle()
        #expect(tablet.otherDevicePurchases.map(\.recordID) == [coins, pro])
        try store.finishTransaction(coins)
        store.runUntilIdle()
        #expect(phone.unfinishedTransactions.map(\.id) == [pro])
        #expect(tablet.otherDevicePurchases.map(\.recordID) == [pro])
        #expect(listener.events.contains(.removed([coins])))
        #expect(store.transaction(coins) != nil, "the history keeps it")
        #expect(throws: StoreSimulatorError(.unknownTransaction, "")) { try store.finishTransaction(42) }
        withExtendedLifetime((listener, quiet)) {}
    }

    @Test(
        "A durable store keeps both through a reopen from its journal and from its compacted tables",
        arguments: [false, true])
    func durable(compacted: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let durable = try SimulatedStore(statePath: path, durability: StoreDurability(compactEvery: nil), lane: .manual)
        let (phone, listener) = durable.silentConnection("phone")
        let coins = phone.submit(PaymentRequest(productID: "com.example.coins100"))
        durable.runUntilIdle()
        let original = try durable.buyProduct(Self.monthly)
        try durable.setAppAccountToken(Self.token, originalTransactionID: original.id)
        try durable.finishTransaction(coins)
        durable.runUntilIdle()
        if compacted {
            try durable.compact()
            let journal = try #require(durable.ledger).read { txn in try txn.logCount(in: StoreJournal.logName) }
            #expect(journal == 0, "the tables hold everything")
        }
        try durable.close()
        withExtendedLifetime(listener) {}

        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(reopened.transaction(original.id)?.applicationUsername == Self.token.uuidString.lowercased())
        #expect(
            try reopened.signedTransactionValue(of: #require(reopened.transaction(original.id))).payload.appAccountToken
                == Self.token.uuidString.lowercased())
        // The coins left the phone; the subscription bought outside the app is still there, unfinished.
        #expect(reopened.unfinishedTransactions(deviceID: "phone").map(\.recordID) == [original.id])
        // The next renewal, made by the reopened store, carries the token too.
        try reopened.advance(by: 8 * 86_400)
        let renewal = try #require(reopened.subscriptions().first?.latestRecordID)
        #expect(renewal != original.id)
        #expect(reopened.transaction(renewal)?.applicationUsername == Self.token.uuidString.lowercased())
        try reopened.close()
    }
}
