import Foundation
import StoreModels
import StoreSimulator
import Synchronization
import Testing

/// A listener that writes down every event and runs an action the first time it hears of a transaction `.purchasing`.
private final class PurchasingHook: DeviceListener, @unchecked Sendable {
    // @unchecked: used on a manual lane only, from the test's thread.
    let log = EventRecorder()
    var action: (() -> Void)?

    func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent) {
        log.connection(connection, didProduce: event)
        guard case .updated(let transactions) = event, transactions.first?.state == .purchasing, let action else {
            return
        }
        self.action = nil
        action()
    }
}

@Suite("Device events")
struct DeviceEventTests {
    @Test("A front end attached while a payment is reported purchasing hears its decided state; one that left does not")
    func attachAndLeaveDuringReport() throws {
        let store = SimulatedStore(lane: .manual)
        let hook = PurchasingHook()
        let leaving = EventRecorder()
        let joining = EventRecorder()
        let connection = store.connect(deviceID: "phone", frontEnd: "StoreKit 1", listener: hook)
        let leavingConnection = store.connect(deviceID: "phone", frontEnd: "Widget", listener: leaving)
        var joined: DeviceConnection?
        hook.action = {
            leavingConnection.disconnect()
            joined = store.connect(deviceID: "phone", frontEnd: "StoreKit 2", listener: joining)
        }
        let id = connection.submit(PaymentRequest(productID: "com.example.coins100"))
        store.runUntilIdle()
        let decided = try #require(connection.unfinishedTransaction(id))
        #expect(decided.state == .purchased)
        #expect(hook.log.events.count == 2, "purchasing, then purchased")
        #expect(joining.events == [.updated([decided])], "attached after the purchasing report: hears the decision")
        #expect(leaving.events.count == 1, "left after the purchasing report: hears nothing more")
        #expect(joined?.isAttached == true)
    }

    @Test("A listener that only handles events hears a payment purchasing, then decided, and a finished one removed")
    func defaultEvents() throws {
        let store = SimulatedStore(lane: .manual)
        let log = EventRecorder()
        let device = store.connect(deviceID: "phone", frontEnd: "tests", listener: log)
        #expect(device.unfinishedTransactions.isEmpty)
        let id = device.submit(PaymentRequest(productID: "com.example.coins100"))
        let purchasing = try #require(device.unfinishedTransaction(id))
        #expect(purchasing.state == .purchasing)
        #expect(log.events.isEmpty, "the store reports on its lane")
        store.runUntilIdle()
        let decided = try #require(device.unfinishedTransactions.first)
        #expect(decided.state == .purchased)
        #expect(log.events == [.updated([purchasing]), .updated([decided])])
        device.finish(id)
        store.runUntilIdle()
        #expect(log.events == [.updated([purchasing]), .updated([decided]), .removed([id])])
        #expect(device.unfinishedTransactions.isEmpty)
        device.finish(id)
        store.runUntilIdle()
        #expect(log.events.count == 3, "finishing twice finds nothing")
    }

    @Test("Two front ends of one device each hear every event once, in store order; one finishing removes for both")
    func twoFrontEnds() throws {
        let store = SimulatedStore(lane: .manual)
        let first = EventRecorder()
        let second = EventRecorder()
        let one = store.connect(deviceID: "phone", frontEnd: "StoreKit 1", listener: first)
        let two = store.connect(deviceID: "phone", frontEnd: "StoreKit 2", listener: second)
        let coins = one.submit(PaymentRequest(productID: "com.example.coins100"))
        let pro = two.submit(PaymentRequest(productID: "com.example.pro"))
        store.runUntilIdle()
        #expect(one.unfinishedTransactions.map(\.id) == [coins, pro])
        #expect(two.unfinishedTransactions == one.unfinishedTransactions, "one set of unfinished transactions")
        two.finish(coins)
        store.runUntilIdle()
        #expect(one.unfinishedTransactions.map(\.id) == [pro])
        let states = first.events.map { event -> String in
            switch event {
            case .updated(let transactions): transactions.map { "\($0.id) \($0.state)" }.joined()
            case .removed(let ids): "removed \(ids)"
            default: "other"
            }
        }
        #expect(
            states == [
                "\(coins) purchasing", "\(coins) purchased", "\(pro) purchasing", "\(pro) purchased",
                "removed [\(coins)]",
            ])
        #expect(second.events == first.events, "the same events, each once, in the same order")
    }

    @Test("A front end attached under the name of one already attached takes over; others keep listening")
    func takeOver() throws {
        let store = SimulatedStore(lane: .manual)
        let old = EventRecorder()
        let other = EventRecorder()
        let relaunched = EventRecorder()
        let oldConnection = store.connect(deviceID: "phone", frontEnd: "StoreKit 1", listener: old)
        let otherConnection = store.connect(deviceID: "phone", frontEnd: "StoreKit 2", listener: other)
        let newConnection = store.connect(deviceID: "phone", frontEnd: "StoreKit 1", listener: relaunched)
        #expect(!oldConnection.isAttached)
        #expect(otherConnection.isAttached && newConnection.isAttached)
        newConnection.submit(PaymentRequest(productID: "com.example.coins100"))
        store.runUntilIdle()
        #expect(relaunched.events.count == 2, "purchasing, then purchased")
        #expect(other.events == relaunched.events)
        oldConnection.submit(PaymentRequest(productID: "com.example.coins100"))
        store.runUntilIdle()
        #expect(old.events.isEmpty, "the earlier one hears nothing more, though it may still act")
        #expect(relaunched.events.count == 3, "its payment is decided; purchasing was for the front end that left")
        #expect(other.events == relaunched.events)
        newConnection.disconnect()
        otherConnection.submit(PaymentRequest(productID: "com.example.coins100"))
        store.runUntilIdle()
        #expect(relaunched.events.count == 3, "a disconnected front end hears nothing")
        #expect(other.events.count == 5)
    }

    @Test("A device's transactions outlive its front end; a payment left purchasing is decided when one connects")
    func reconnect() throws {
        let store = SimulatedStore(lane: .manual)
        var first: EventRecorder? = EventRecorder()
        let connection = store.connect(deviceID: "tablet", frontEnd: "tests", listener: first!)
        let pro = connection.submit(PaymentRequest(productID: "com.example.pro"))
        first = nil  // the app went away before the store ran
        store.runUntilIdle()
        let decided = try #require(connection.unfinishedTransaction(pro))
        #expect(decided.state == .purchased)
        let late = EventRecorder()
        let again = store.connect(deviceID: "tablet", frontEnd: "tests", listener: late)
        #expect(again.unfinishedTransactions == [decided])
        store.runUntilIdle()
        #expect(late.events.isEmpty, "what was decided before it connected is in its unfinished transactions")
    }

    @Test("A purchase reaches the devices signed in to the account now, as devices change accounts")
    func purchasesFollowAccounts() throws {
        let store = SimulatedStore(lane: .manual)
        let phone = store.connect(deviceID: "phone", account: "alice", frontEnd: "tests", listener: EventRecorder())
        let tablet = store.connect(deviceID: "tablet", account: "alice", frontEnd: "tests", listener: EventRecorder())
        let first = phone.submit(PaymentRequest(productID: "com.example.coins100"))
        store.runUntilIdle()
        #expect(tablet.otherDevicePurchases.map(\.id) == [first])
        // The tablet signs in to bob, alone there: neither account has another device to tell.
        let bobsTablet = store.connect(deviceID: "tablet", account: "bob", frontEnd: "tests", listener: EventRecorder())
        let alone = phone.submit(PaymentRequest(productID: "com.example.coins100"))
        let bobs = bobsTablet.submit(PaymentRequest(productID: "com.example.coins100"))
        store.runUntilIdle()
        #expect(phone.unfinishedTransaction(alone)?.state == .purchased)
        #expect(bobsTablet.otherDevicePurchases.map(\.id) == [first], "nothing new from alice's phone")
        #expect(phone.otherDevicePurchases.isEmpty, "nothing from bob's tablet")
        // A watch joins bob: the tablet's purchases reach it, not alice's phone.
        let watch = store.connect(deviceID: "watch", account: "bob", frontEnd: "tests", listener: EventRecorder())
        let shared = bobsTablet.submit(PaymentRequest(productID: "com.example.coins100"))
        store.runUntilIdle()
        #expect(watch.otherDevicePurchases.map(\.id) == [shared])
        #expect(phone.otherDevicePurchases.isEmpty)
        #expect(!watch.otherDevicePurchases.contains { $0.id == bobs })
    }
}
