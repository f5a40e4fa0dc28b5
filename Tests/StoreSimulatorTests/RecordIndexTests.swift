import Foundation
import StoreModels
import Testing

@testable import StoreSimulator

@Suite("The store's indexes of records and devices")
struct RecordIndexTests {
    private static func record(_ id: UInt64, account: String, product: String, type: ProductType = .consumable)
        -> TransactionRecord
    {
        TransactionRecord(
            id: id, account: account, productID: product, productType: type, quantity: 1, state: .purchased,
            purchaseDate: Date(timeIntervalSince1970: 1_000_000 + Double(id)))
    }

    @Test("An account's records come oldest first, however they were stored, and move when replaced")
    func historyIndexes() {
        var history = RecordTable()
        for id: UInt64 in [5, 2, 9, 7, 1] {
            history[id] = Self.record(id, account: id % 2 == 0 ? "even" : "odd", product: "p\(id % 3)")
        }
        #expect(history.records(of: "odd").map(\.id) == [1, 5, 7, 9])
        #expect(history.records(of: "even").map(\.id) == [2])
        #expect(history.records(of: "odd", productID: "p1").map(\.id) == [1, 7])
        #expect(history.records(of: "nobody").isEmpty)

        // The same identifier stored for another account and product leaves its old place.
        history[7] = Self.record(7, account: "even", product: "p0")
        #expect(history.records(of: "odd").map(\.id) == [1, 5, 9])
        #expect(history.records(of: "odd", productID: "p1").map(\.id) == [1])
        #expect(history.records(of: "even").map(\.id) == [2, 7])
        #expect(history.records(of: "even", productID: "p0").map(\.id) == [7])

        // A change in place keeps it where it is; removal takes it out of every index.
        history[5]?.cancellationDate = Date(timeIntervalSince1970: 2_000_000)
        #expect(history.records(of: "odd").map(\.id) == [1, 5, 9])
        #expect(history[5]?.cancellationDate != nil)
        history[5] = nil
        history[2] = nil
        #expect(history.records(of: "odd").map(\.id) == [1, 9])
        #expect(history.records(of: "even").map(\.id) == [7])
        #expect(history.count == 3)

        // A state file's records, indexed as they are read.
        let restored = RecordTable([
            3: Self.record(3, account: "b", product: "y"), 4: Self.record(4, account: "b", product: "x"),
        ])
        #expect(restored.records(of: "a").isEmpty)
        #expect(restored.records(of: "b").map(\.id) == [3, 4])
        #expect(restored.records(of: "b", productID: "y").map(\.id) == [3])
    }

    @Test("Renewals reach the devices signed in to the account now, after a device moves to another account")
    func renewalsFollowDeviceAccounts() throws {
        let store = SimulatedStore(lane: .manual)
        let moving = "device-moving"
        let staying = "device-staying"
        let alicesFirst = store.silentConnection(moving, account: "alice")
        let alicesSecond = store.silentConnection(staying, account: "alice")
        let alice = try store.buyProduct("com.example.premium.monthly", account: "alice")
        let bob = try store.buyProduct("com.example.premium.monthly", account: "bob")
        // The first period (a week's free trial) ends, and each subscription renews once.
        try store.advance(by: 8 * 86_400)
        store.runUntilIdle()
        func renewals(_ deviceID: String) -> [UInt64] {
            store.unfinishedTransactions(deviceID: deviceID).compactMap(\.originalID)
        }
        #expect(renewals(moving) == [alice.id])
        #expect(renewals(staying) == [alice.id])

        // The device signs in to bob's account: the next renewals of bob reach it, alice's no longer do.
        let bobs = store.silentConnection(moving, account: "bob")
        try store.advance(by: 31 * 86_400)
        store.runUntilIdle()
        #expect(renewals(moving) == [alice.id, bob.id])
        #expect(renewals(staying) == [alice.id, alice.id])
        #expect(store.account(ofDevice: moving) == "bob")
        withExtendedLifetime((alicesFirst, alicesSecond, bobs)) {}
    }

    @Test("The subscriptions due by a date are those a look at every subscription finds, each once, in slot order")
    func dueSubscriptions() {
        var book = SubscriptionBook()
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        func subscription(_ number: Int, expiresIn days: Double) -> SubscriptionState {
            SubscriptionState(
                account: "user\(number)", groupID: "premium",
                record: TransactionRecordSnapshot(
                    id: UInt64(number), originalID: UInt64(number), productID: "monthly",
                    expiresAt: start.addingTimeInterval(days * 86_400)))
        }
        for number in 0..<40 { book["user\(number)\npremium"] = subscription(number, expiresIn: Double(number % 10)) }
        // Rescheduled away and back, and expired: outdated entries stay in the heap and must not count.
        book["user3\npremium"] = subscription(3, expiresIn: 30)
        book["user3\npremium"] = subscription(3, expiresIn: 3)
        book["user4\npremium"]?.phase = .expired
        book["user25\npremium"] = subscription(25, expiresIn: 0.5)
        for days in [-1.0, 0, 0.5, 2, 4.5, 9, 40] {
            let limit = start.addingTimeInterval(days * 86_400)
            var expected: [String] = []
            book.visit { if let next = $0.nextEventDate, next <= limit { expected.append($0.account) } }
            var found: [String] = []
            book.visitDue(notAfter: limit) { found.append($0.account) }
            #expect(found == expected, "due by \(days) days")
        }
    }
}
