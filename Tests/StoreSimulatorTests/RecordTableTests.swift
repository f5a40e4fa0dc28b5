import Foundation
import StoreModels
import Testing

@testable import StoreSimulator

@Suite("Record table")
struct RecordTableTests {
    private func record(_ id: UInt64, _ type: ProductType = .consumable) -> TransactionRecord {
        TransactionRecord(
            id: id, account: "account-of-a-long-name-\(id % 3)", productID: "com.example.product.\(id % 5)",
            productType: type, quantity: 1, state: .purchased, purchaseDate: Date(timeIntervalSinceReferenceDate: 0))
    }

    /// The identifiers the table holds, sorted, checked against what each one reads back.
    private func ids(_ table: RecordTable) -> [UInt64] {
        let ids = table.values.map(\.id).sorted()
        for id in ids { #expect(table[id]?.id == id) }
        #expect(table.count == ids.count)
        return ids
    }

    @Test("Records set, changed in place and removed by identifier read back as a dictionary's would")
    func behavesAsADictionary() throws {
        var table = RecordTable()
        var expected: [UInt64: TransactionRecord] = [:]
        for id: UInt64 in 1...50 {
            table[id] = record(id)
            expected[id] = record(id)
        }
        // Removals from the middle, the first and the last position, by each route.
        for id: UInt64 in [7, 1, 50, 23] {
            table[id] = nil
            expected[id] = nil
        }
        for id: UInt64 in [11, 49] {
            table[id]?.state = .failed
            expected[id]?.state = .failed
        }
        for id: UInt64 in [2, 40] {
            let position = try #require(table.index(forKey: id))
            #expect(table.isDroppable(at: position))
            table.remove(at: position)
            expected[id] = nil
        }
        table[60] = record(60, .nonConsumable)
        expected[60] = record(60, .nonConsumable)
        table[61]?.state = .failed  // changing a record that is not there adds nothing
        #expect(ids(table) == expected.keys.sorted())
        for (id, record) in expected { #expect(table[id] == record) }
        #expect(table.index(forKey: 60).map(table.isDroppable(at:)) == false)
        #expect(table.index(forKey: 1) == nil)
    }

    @Test("A change in place that leaves nothing removes the record; one that fills an empty key adds it")
    func modifyThroughOptional() {
        var table = RecordTable()
        for id: UInt64 in 1...5 { table[id] = record(id) }
        func drop(_ value: inout TransactionRecord?) { value = nil }
        func fill(_ value: inout TransactionRecord?, _ id: UInt64) { value = TransactionRecord.fixture(id) }
        drop(&table[3])
        fill(&table[9], 9)
        #expect(ids(table) == [1, 2, 4, 5, 9])
        drop(&table[9])
        drop(&table[1])
        #expect(ids(table) == [2, 4, 5])
    }

    @Test("Writes note their identifiers only while changes are tracked, and removing everything is noted")
    func tracksChanges() {
        var table = RecordTable([1: record(1), 2: record(2)])
        table[3] = record(3)
        #expect(table.takeChanges().changed.isEmpty)
        table.tracksChanges = true
        table[1]?.state = .failed
        table[2] = nil
        table.remove(at: table.index(forKey: 3)!)
        let changes = table.takeChanges()
        #expect(changes.changed == [1, 2, 3] && !changes.cleared)
        table[4] = record(4)
        table.removeAll()
        let cleared = table.takeChanges()
        #expect(cleared.cleared && cleared.changed.isEmpty && table.count == 0 && table.values.isEmpty)
    }
}

extension TransactionRecord {
    fileprivate static func fixture(_ id: UInt64) -> TransactionRecord {
        TransactionRecord(
            id: id, account: "a", productID: "p", productType: .consumable, quantity: 1, state: .purchased,
            purchaseDate: Date(timeIntervalSinceReferenceDate: 0))
    }
}
