import Foundation
import ReceiptKit
import StoreModels
import Synchronization
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

    @Test("A record's descendants are the records naming it as their original, as records are stored and removed")
    func descendantsIndex() {
        var history = RecordTable()
        func renewal(_ id: UInt64, of original: UInt64, account: String = "a") -> TransactionRecord {
            var record = Self.record(id, account: account, product: "monthly", type: .autoRenewableSubscription)
            record.originalID = original
            return record
        }
        history[1] = Self.record(1, account: "a", product: "monthly", type: .autoRenewableSubscription)
        history[4] = renewal(4, of: 1)
        history[2] = renewal(2, of: 1)
        // A chain may cross accounts in a state file written by hand: the index does not assume otherwise.
        history[6] = renewal(6, of: 1, account: "b")
        history[5] = Self.record(5, account: "a", product: "coins")
        #expect(Array(history.descendants(of: 1)) == [2, 4, 6])
        #expect(history.descendants(of: 5).isEmpty)
        #expect(history.descendants(of: 2).isEmpty)

        // Changed in place to another original, replaced, removed by key or by position.
        history[4]?.originalID = 5
        #expect(Array(history.descendants(of: 1)) == [2, 6])
        #expect(Array(history.descendants(of: 5)) == [4])
        history[4] = renewal(4, of: 1)
        #expect(Array(history.descendants(of: 1)) == [2, 4, 6])
        #expect(history.descendants(of: 5).isEmpty)
        history[2] = nil
        if let position = history.index(forKey: 6) { history.remove(at: position) }
        #expect(Array(history.descendants(of: 1)) == [4])
        // A record removed by key leaves its account's index too.
        #expect(history.records(of: "a").map(\.id) == [1, 4, 5])
        #expect(history.records(of: "b").isEmpty)
        history.removeAll()
        #expect(history.descendants(of: 1).isEmpty)
    }

    @Test("A subscription is found by the record it began with, as subscriptions are written, renewed and removed")
    func subscriptionsByRecord() {
        var book = SubscriptionBook()
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        func subscription(_ account: String, original: UInt64, latest: UInt64) -> SubscriptionState {
            var state = SubscriptionState(
                account: account, groupID: "premium",
                record: TransactionRecordSnapshot(
                    id: original, originalID: original, productID: "monthly", expiresAt: start))
            state.latestRecordID = latest
            return state
        }
        book["a\npremium"] = subscription("a", original: 10, latest: 10)
        book["b\npremium"] = subscription("b", original: 20, latest: 20)
        // Two subscriptions naming the same original (a state file written by hand), in slot order.
        book["c\npremium"] = subscription("c", original: 10, latest: 30)
        #expect(book.values(originalID: 10).map(\.account) == ["a", "c"])
        #expect(book.values(originalID: 30).isEmpty)

        // A renewal moves the latest record; a new subscription in the same slot takes another original.
        book["a\npremium"]?.latestRecordID = 11
        book["b\npremium"] = subscription("b", original: 21, latest: 21)
        #expect(book.values(originalID: 20).isEmpty)
        #expect(book.values(originalID: 21).map(\.account) == ["b"])

        // Removing by record takes the subscriptions whose original or latest record is named, and only those.
        book.removeAll(naming: [11])
        #expect(book.values(originalID: 10).map(\.account) == ["c"])
        #expect(book["a\npremium"] == nil)
        book.removeAll(naming: [30])
        #expect(book.values(originalID: 10).isEmpty)
        #expect(book["b\npremium"] != nil)

        // Read back from a state file's rows, the index is rebuilt.
        let restored = SubscriptionBook(rows: book.rows(nil).sorted { $0.key < $1.key }.map(\.value), nextSequence: 9)
        #expect(restored.values(originalID: 21).map(\.account) == ["b"])
    }

    @Test("Only devices holding transactions are listed as holding them, as purchases are made, told and finished")
    func devicesHoldingTransactions() throws {
        let store = SimulatedStore(lane: .manual)
        // Fifty devices, one account each but user0's, which device-25 is signed in to too.
        let attached = (0..<50).map { number in
            store.silentConnection("device-\(number)", account: number == 25 ? "user0" : "user\(number)")
        }
        let connections = attached.map(\.0)
        func holding() -> [String] { store.state.withLock { $0.devices.holdingTransactions.map(\.id).sorted() } }
        #expect(holding().isEmpty)

        let first = connections[0].submit(PaymentRequest(productID: "com.example.coins100"))
        #expect(holding() == ["device-0"])
        store.runUntilIdle()
        // The purchase is unfinished on device-0 and told to device-25, the other device of user0.
        #expect(holding() == ["device-0", "device-25"])
        let receipt = store.appReceiptModel(deviceID: "device-25")
        #expect(receipt.inAppPurchases.map(\.transactionIdentifier) == [String(first)])

        connections[0].finish(first)
        store.runUntilIdle()
        #expect(holding() == ["device-25"])
        // Still reported on device-25, the consumable stays in the receipt until that device finishes it too.
        #expect(store.appReceiptModel(deviceID: "device-0").inAppPurchases.isEmpty)
        connections[25].finish(first)
        store.runUntilIdle()
        #expect(holding().isEmpty)

        let second = connections[3].submit(PaymentRequest(productID: "com.example.pro"))
        store.runUntilIdle()
        try store.deleteTransaction(second)
        store.runUntilIdle()
        #expect(holding().isEmpty)
        #expect(connections[3].unfinishedTransactions.isEmpty)
        withExtendedLifetime(attached) {}
    }
}
