import Foundation
import Ledger
import ReceiptKit
import StoreModels
import Synchronization
import TestSupport
import Testing

@testable import StoreSimulator

/// `reverseRefund(transactionID:)`: a granted refund reversed after a dispute (Apple's `REFUND_REVERSED`).
@Suite("Refund reversals")
struct RefundReversalTests {
    static let monthly = "com.example.premium.monthly"
    static let day: TimeInterval = 86_400

    @Test("A reversed refund gives the purchase back: no cancellation in the receipt or the signed transaction")
    func nonConsumableIsOwnedAgain() throws {
        let store = SimulatedStore(lane: .manual)
        let log = EventRecorder()
        let connection = store.connect(deviceID: "phone", frontEnd: "tests", listener: log)
        defer { withExtendedLifetime(connection) {} }
        let pro = try store.buyProduct("com.example.pro")
        try store.refund(pro.id, reason: .developerIssue)
        #expect(store.access(to: "com.example.pro").phase == .revoked)
        #expect(try store.signedTransactionValue(pro.id).payload.revocationDate != nil)

        let reversed = try store.reverseRefund(transactionID: pro.id)
        #expect(reversed.cancellationDate == nil)
        #expect(reversed.revocationReason == nil)
        #expect(store.transaction(pro.id) == reversed)
        #expect(store.access(to: "com.example.pro").hasAccess)
        let entry = try #require(
            store.appReceiptModel(deviceID: "phone").inAppPurchases.first { $0.transactionIdentifier == "\(pro.id)" })
        #expect(entry.cancellationDate == nil)
        let signed = try store.signedTransactionValue(pro.id).payload
        #expect(signed.revocationDate == nil)
        #expect(signed.revocationReason == nil)
        store.runUntilIdle()
        #expect(log.events.last == .refundReversed([pro.id]))

        // Refunded again, it is a refund like the first.
        try store.refund(pro.id)
        #expect(store.access(to: "com.example.pro").phase == .revoked)
    }

    @Test("A subscription whose running period was refunded is active again until the same date, and renews from it")
    func runningPeriodComesBack() throws {
        let store = SimulatedStore(lane: .manual)
        let bought = try store.buyProduct(Self.monthly)
        let end = try #require(bought.expirationDate)
        try store.advance(to: store.now.addingTimeInterval(2 * Self.day))
        try store.refund(bought.id)
        #expect(store.subscriptions().first?.phase == .expired)
        #expect(!store.access(to: Self.monthly).hasAccess)

        try store.advance(to: store.now.addingTimeInterval(Self.day))
        #expect(store.now < end)
        try store.reverseRefund(transactionID: bought.id)
        let subscription = try #require(store.subscriptions().first)
        #expect(subscription.phase == .active)
        #expect(subscription.expiresAt == end, "the renewal date is unchanged")
        #expect(subscription.autoRenew)
        #expect(store.access(to: Self.monthly).hasAccess)
        #expect(try store.signedRenewalInfoValue(originalTransactionID: bought.id).payload.renewalDate == JWSDate(end))

        try store.advance(to: end.addingTimeInterval(60))
        let renewed = try #require(store.subscriptions().first)
        #expect(renewed.latestRecordID != bought.id)
        #expect(store.transaction(renewed.latestRecordID)?.purchaseDate == end)
        #expect(renewed.phase == .active)
    }

    @Test("A subscription whose refunded period is over by the reversal stays expired, at the end of that period")
    func pastPeriodStaysExpired() throws {
        let store = SimulatedStore(lane: .manual)
        let bought = try store.buyProduct(Self.monthly)
        let end = try #require(bought.expirationDate)
        try store.advance(to: store.now.addingTimeInterval(5 * Self.day))
        try store.refund(bought.id)
        try store.advance(to: end.addingTimeInterval(10 * Self.day))

        try store.reverseRefund(transactionID: bought.id)
        let subscription = try #require(store.subscriptions().first)
        #expect(subscription.phase == .expired)
        #expect(subscription.expiresAt == end)
        #expect(store.access(to: Self.monthly).phase == .expired)
        #expect(store.transaction(bought.id)?.cancellationDate == nil)
        try store.advance(to: store.now.addingTimeInterval(60 * Self.day))
        #expect(store.allTransactions().count == 1, "nothing is charged for the time it spent refunded")
    }

    @Test("The change feed tells a reversal once, after the refund, with the transaction and subscription it left")
    func changeFeedTellsTheReversal() throws {
        let store = SimulatedStore(lane: .manual)
        let heard = Mutex<[StoreChange]>([])
        store.addChangeObserver { change in heard.withLock { $0.append(change) } }
        let bought = try store.buyProduct(Self.monthly)
        try store.refund(bought.id)
        try store.reverseRefund(transactionID: bought.id)
        store.runUntilIdle()
        let changes = heard.withLock { $0 }
        #expect(changes.map(\.kindName) == ["subscribed", "refunded(other)", "refundReversed"])
        let reversal = try #require(changes.last)
        #expect(reversal.transaction.id == bought.id)
        #expect(reversal.transaction.cancellationDate == nil)
        #expect(reversal.subscription?.phase == .active)
        #expect(reversal.date == store.now)
    }

    @Test("Reversing a transaction that was never refunded is refused naming it, and changes nothing")
    func neverRefundedIsRefused() throws {
        let store = SimulatedStore(lane: .manual)
        let pro = try store.buyProduct("com.example.pro")
        let error = #expect(throws: StoreSimulatorError(.invalidAction, "")) {
            try store.reverseRefund(transactionID: pro.id)
        }
        #expect(error?.detail.contains("transaction \(pro.id)") == true, "\(error?.detail ?? "")")
        #expect(error?.detail.contains("never refunded") == true, "\(error?.detail ?? "")")
        #expect(store.transaction(pro.id) == pro)
        #expect(throws: StoreSimulatorError(.unknownTransaction, "")) { try store.reverseRefund(transactionID: 42) }
    }

    @Test("A reversal on a durable store survives reopening, compacted or not", arguments: [false, true])
    func reversalSurvivesReopening(compacted: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let memory = SimulatedStore(lane: .manual)
        let durable = try SimulatedStore(statePath: path, lane: .manual)
        for store in [memory, durable] {
            let bought = try store.buyProduct(Self.monthly)
            try store.advance(to: store.now.addingTimeInterval(5 * Self.day))
            try store.refund(bought.id)
            try store.reverseRefund(transactionID: bought.id)
        }
        if compacted { try durable.compact() }
        let entries = try #require(durable.ledger).read { txn in try txn.logEntries(in: StoreJournal.logName) }
        #expect(entries.contains { $0.payload.first == 29 } == !compacted)
        try durable.close()
        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(reopened.subscriptions().first?.phase == .active)
        #expect(reopened.allTransactions().allSatisfy { $0.cancellationDate == nil })
        try expectSameState(memory, reopened)
        try reopened.close()
    }

    @Test("A truncated reversal entry is refused naming the file and the entry")
    func truncatedReversalEntry() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try SimulatedStore(statePath: path, lane: .manual).close()
        var writer = JournalWriter()
        StoreCommand.operation(.reverseRefund(1)).encode(at: ManualClock().now, into: &writer)
        let sequence = try LedgerDatabase(path: path).write { txn in
            try txn.appendLog(Array(writer.bytes.dropLast(2)), to: StoreJournal.logName)
        }
        let error = try StateFileTests.expectRefused(.stateCorrupt, path, in: directory)
        #expect(error?.detail.contains("journal entry \(sequence)") == true, "\(error?.detail ?? "")")
        #expect(error?.detail.contains("ends inside the transaction") == true, "\(error?.detail ?? "")")
    }
}
