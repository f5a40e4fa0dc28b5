import Foundation
import Ledger
import ReceiptKit
import StoreModels
import TestSupport
import Testing

@testable import StoreSimulator

/// Renewal-date extensions in state files: journaled, replayed and compacted like every other change.
@Suite("Renewal-date extensions in state files")
struct RenewalExtensionStateTests {
    static let monthly = "com.example.premium.monthly"
    static let tenDays: TimeInterval = 10 * 86_400

    @Test(
        "An extension on a durable store survives reopening, and renewals go on from the new date",
        arguments: [false, true])
    func extensionSurvivesReopening(compacted: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let memory = SimulatedStore(lane: .manual)
        let durable = try SimulatedStore(statePath: path, lane: .manual)
        var extended: SubscriptionState?
        for store in [memory, durable] {
            let bought = try store.buyProduct(Self.monthly)
            let before = try #require(store.transaction(bought.id)?.expirationDate)
            extended = try store.extendRenewalDate(originalID: bought.originalID, by: Self.tenDays)
            #expect(extended?.expiresAt == before.addingTimeInterval(Self.tenDays))
        }
        let subscription = try #require(extended)
        if compacted { try durable.compact() }
        try durable.close()

        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(reopened.subscriptions(of: SimulatedStore.defaultAccount) == [subscription])
        #expect(reopened.transaction(subscription.latestRecordID)?.expirationDate == subscription.expiresAt)
        try expectSameState(memory, reopened)
        let renewal = try reopened.signedRenewalInfoValue(originalTransactionID: subscription.originalID)
        #expect(renewal.payload.renewalDate == JWSDate(subscription.expiresAt))
        let transaction = try reopened.signedTransactionValue(subscription.latestRecordID)
        #expect(transaction.payload.expiresDate == JWSDate(subscription.expiresAt))

        // The next renewal is charged at the extended date, not the original one.
        for store in [memory, reopened] {
            try store.advance(to: subscription.expiresAt.addingTimeInterval(60))
        }
        let renewed = try #require(reopened.subscriptions(of: SimulatedStore.defaultAccount).first)
        #expect(renewed.latestRecordID != subscription.latestRecordID)
        #expect(reopened.transaction(renewed.latestRecordID)?.purchaseDate == subscription.expiresAt)
        try expectSameState(memory, reopened)
        try reopened.close()
    }

    @Test("A journal of changes recorded before extensions were (no tag 28) opens as it did")
    func journalWithoutExtensionsOpens() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        // The entries of a purchase and renewals, in the layout every release writes (tag, time, arguments): what a
        // release without tag 28 left in a file.
        var writer = JournalWriter()
        let start = ManualClock().now
        let created = try SimulatedStore(statePath: path, lane: .manual)
        try created.close()
        let purchase: [UInt8] = {
            writer.reset()
            StoreCommand.operation(.buyProduct(productID: Self.monthly)).encode(at: start, into: &writer)
            return writer.bytes
        }()
        let later = start.addingTimeInterval(70 * 86_400)
        let advance: [UInt8] = {
            writer.reset()
            StoreCommand.operation(.advance(to: later)).encode(at: start, into: &writer)
            return writer.bytes
        }()
        #expect(purchase[0] == 14)
        #expect(advance[0] == 22)
        try LedgerDatabase(path: path).write { txn in
            try txn.appendLog(purchase, to: StoreJournal.logName)
            try txn.appendLog(advance, to: StoreJournal.logName)
        }
        let memory = SimulatedStore(lane: .manual)
        try memory.buyProduct(Self.monthly)
        try memory.advance(to: later)

        let reopened = try SimulatedStore(statePath: path, lane: .manual)
        #expect(reopened.allTransactions().count > 1, "the purchase and its renewals")
        try expectSameState(memory, reopened)
        try reopened.close()
    }

    @Test("A truncated extension entry is refused naming the file and the entry, and the file is left as it is")
    func truncatedExtensionEntry() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        let store = try SimulatedStore(statePath: path, lane: .manual)
        let bought = try store.buyProduct(Self.monthly)
        try store.extendRenewalDate(originalID: bought.originalID, by: Self.tenDays)
        try store.close()
        // Cut the last entry (the extension) short, inside its interval.
        let sequence = try LedgerDatabase(path: path).write { txn -> Int64 in
            let entries = try txn.logEntries(in: StoreJournal.logName)
            let last = try #require(entries.last)
            #expect(last.payload.first == 28)
            _ = try txn.removeLogEntries(in: StoreJournal.logName, through: last.sequence)
            for entry in entries.dropLast() { try txn.appendLog(entry.payload, to: StoreJournal.logName) }
            return try txn.appendLog(Array(last.payload.dropLast(3)), to: StoreJournal.logName)
        }
        let error = try StateFileTests.expectRefused(.stateCorrupt, path, in: directory)
        #expect(error?.detail.contains("journal entry \(sequence)") == true, "\(error?.detail ?? "")")
        #expect(error?.detail.contains("ends inside the extension") == true, "\(error?.detail ?? "")")
    }

    @Test("An extension entry with an interval that is not a positive time is refused, naming the entry")
    func negativeExtensionEntry() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.sqlite")
        try SimulatedStore(statePath: path, lane: .manual).close()
        var writer = JournalWriter()
        StoreCommand.operation(.extendRenewalDate(originalID: 1, by: -86_400)).encode(
            at: ManualClock().now, into: &writer)
        let sequence = try LedgerDatabase(path: path).write { txn in
            try txn.appendLog(writer.bytes, to: StoreJournal.logName)
        }
        let error = try StateFileTests.expectRefused(.stateCorrupt, path, in: directory)
        #expect(error?.detail.contains("journal entry \(sequence)") == true, "\(error?.detail ?? "")")
        #expect(error?.detail.contains("not a positive time") == true, "\(error?.detail ?? "")")
    }
}
