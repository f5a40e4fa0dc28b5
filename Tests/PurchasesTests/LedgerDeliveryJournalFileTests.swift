import Foundation
import Purchases
import StoreModels
import Testing

@testable import Ledger

@Suite("Delivery journals in state files of earlier releases")
struct LedgerDeliveryJournalFileTests {
    @Test("Deliveries an earlier release wrote in the deliveries table are found, dated and never granted again")
    func earlierDeliveries() throws {
        let directory = FileManager.default.temporaryDirectory.path + "/journal-file-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/state.sqlite"
        try LedgerDatabase(path: path).write { txn in try txn.setMeta(Int64(0), forKey: "coins") }
        // What an earlier release's journal wrote for a delivery: the transaction and the time since 2001.
        try Connection(path: path).execute(
            "INSERT INTO deliveries (transaction_id, delivered_at) VALUES ('2000000000000007', 789.25)")

        let clock = ManualClock()
        let journal = LedgerDeliveryJournal(database: try LedgerDatabase(path: path), clock: clock)
        #expect(journal.isDelivered("2000000000000007"))
        #expect(journal.deliveryDate("2000000000000007") == Date(timeIntervalSinceReferenceDate: 789.25))
        let granted = try journal.deliver("2000000000000007") { txn in try txn.incrementMeta(forKey: "coins") }
        #expect(!granted)
        #expect(try journal.deliver("2000000000000008") { txn in try txn.incrementMeta(forKey: "coins") })
        #expect(try journal.database.read { txn in try txn.metaInteger(forKey: "coins") } == 1)

        // The new delivery is in the same table, as an earlier release reads it.
        let check = try Connection(path: path)
        #expect(try check.integer("SELECT count(*) FROM deliveries") == 2)
        #expect(
            try check.integer(
                "SELECT count(*) FROM deliveries WHERE transaction_id = '2000000000000008' AND "
                    + "delivered_at = \(ManualClock.defaultStart.timeIntervalSinceReferenceDate)") == 1)
        #expect(try check.integer("PRAGMA user_version") == 2)
    }
}
