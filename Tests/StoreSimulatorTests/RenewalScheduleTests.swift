import Foundation
import StoreModels
import StoreSimulator
import Synchronization
import TestSupport
import Testing

private let day: TimeInterval = 86_400

private let catalog: StoreConfiguration = {
    let month = SubscriptionPeriod(value: 1, unit: .month)
    return StoreConfiguration(
        catalog: StoreCatalog(products: [
            ProductDefinition(id: "pro", type: .nonConsumable, price: 9.99),
            ProductDefinition(id: "coins", type: .consumable, price: 0.99),
            ProductDefinition(
                id: "monthly",
                type: .autoRenewableSubscription,
                price: 4.99,
                subscription: SubscriptionInfo(groupID: "g", groupLevel: 2, period: month)
            ),
            ProductDefinition(
                id: "weekly",
                type: .autoRenewableSubscription,
                price: 1.99,
                subscription: SubscriptionInfo(
                    groupID: "w", groupLevel: 1, period: SubscriptionPeriod(value: 1, unit: .week))
            ),
        ])
    )
}()

/// A device that records what the store tells it.
private final class RecordingDevice: DeviceListener, @unchecked Sendable {
    let deviceID: String
    private let log = Mutex<[DeviceEvent]>([])
    private let waiter = Mutex<(count: Int, continuation: CheckedContinuation<Void, Never>)?>(nil)

    init(_ deviceID: String) { self.deviceID = deviceID }

    var events: [DeviceEvent] { log.withLock { $0 } }

    var purchasedProducts: [String] {
        events.flatMap { event -> [String] in
            guard case .updated(let transactions) = event else { return [] }
            return transactions.filter { $0.state == .purchased }.map(\.payment.productID)
        }
    }

    func connection(_ connection: DeviceConnection, didProduce event: DeviceEvent) {
        let count = log.withLock { log in
            log.append(event)
            return log.count
        }
        let ready = waiter.withLock { waiter -> CheckedContinuation<Void, Never>? in
            guard let pending = waiter, count >= pending.count else { return nil }
            waiter = nil
            return pending.continuation
        }
        ready?.resume()
    }

    /// Waits until the device has heard `count` events.
    func waitForEvents(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = waiter.withLock { waiter -> Bool in
                if log.withLock({ $0.count }) >= count { return true }
                waiter = (count, continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// A clock the test sets, which the store cannot move.
private final class SettableClock: StoreClock, @unchecked Sendable {
    private let time = Mutex(ManualClock.defaultStart)
    var now: Date {
        get { time.withLock { $0 } }
        set { time.withLock { $0 = newValue } }
    }
}

@Suite("Renewal schedule")
struct RenewalScheduleTests {
    @Test("Events for many subscribers come in time order, twelve renewals each in a year")
    func manySubscribersInOrder() throws {
        let clock = ManualClock()
        let store = SimulatedStore(configuration: catalog, clock: clock, lane: .manual)
        for index in 0..<50 {
            try store.buyProduct("monthly", account: "account-\(index)")
            clock.advance(by: 17_000)
        }
        let events = try store.advance(by: 365 * day)
        #expect(events.map(\.date) == events.map(\.date).sorted())
        let byAccount = Dictionary(grouping: events, by: \.account)
        #expect(byAccount.count == 50)
        #expect(byAccount.values.allSatisfy { $0.count == 12 && $0.allSatisfy { $0.kind == .renewed } })
        for event in events {
            let record = try #require(event.transactionID.flatMap { store.transaction($0) })
            #expect(record.purchaseDate == event.date)
            #expect(record.originalID == event.originalID)
            #expect(record.account == event.account)
        }
    }

    @Test("The same actions give the same events, identifiers and dates")
    func deterministic() throws {
        func run() throws -> [String] {
            let clock = ManualClock()
            let store = SimulatedStore(configuration: catalog, clock: clock, lane: .manual)
            store.updateSettings {
                $0.billingRetryOnRenewal = true
                $0.billingGracePeriodEnabled = true
            }
            for index in 0..<5 {
                try store.buyProduct(index.isMultiple(of: 2) ? "monthly" : "weekly", account: "a\(index)")
            }
            var events = try store.advance(by: 40 * day)
            store.updateSettings { $0.billingRetryOnRenewal = false }
            events += try store.advance(by: 100 * day)
            return events.map(\.description)
        }
        let first = try run()
        #expect(first.count > 20)
        #expect(try run() == first)
    }

    @Test("The next event date is the earliest one scheduled")
    func nextEventDate() throws {
        let clock = ManualClock()
        let store = SimulatedStore(configuration: catalog, clock: clock, lane: .manual)
        #expect(store.nextSubscriptionEventDate == nil)
        try store.buyProduct("monthly", account: "a")
        try store.buyProduct("weekly", account: "b")
        #expect(store.nextSubscriptionEventDate == clock.now.addingTimeInterval(7 * day))
        try store.expireSubscription(productID: "weekly", account: "b")
        #expect(store.nextSubscriptionEventDate == store.subscription(groupID: "g", account: "a")?.expiresAt)
    }

    @Test("With a clock it cannot move, the store handles only what is due by the clock's time")
    func clockItCannotMove() throws {
        let clock = SettableClock()
        let store = SimulatedStore(configuration: catalog, clock: clock, lane: .manual)
        try store.buyProduct("weekly")
        #expect(try store.advance(by: 365 * day).isEmpty)
        #expect(clock.now == ManualClock.defaultStart, "the store did not move the clock")
        clock.now = ManualClock.defaultStart.addingTimeInterval(15 * day)
        let events = try store.advance(to: .distantFuture)
        #expect(events.map(\.kind) == [.renewed, .renewed])
    }

    @Test("In real-time runs due renewals are handled on the lane as the clock passes them", .timeLimit(.minutes(1)))
    func realTimeProcessing() async throws {
        let clock = SettableClock()
        let store = SimulatedStore(configuration: catalog, clock: clock, lane: .dispatch(DispatchQueue(label: "lane")))
        let device = RecordingDevice("device")
        let connection = store.connect(deviceID: device.deviceID, frontEnd: "tests", listener: device)
        defer { withExtendedLifetime(connection) {} }
        store.startProcessingDueEvents(every: 0.001)
        defer { store.stopProcessingDueEvents() }
        #expect(store.isProcessingDueEvents)
        try store.buyProduct("weekly")
        try await bounded("the purchase event") { await device.waitForEvents(1) }
        clock.now = ManualClock.defaultStart.addingTimeInterval(7 * day)
        try await bounded("the renewal event") { await device.waitForEvents(2) }
        #expect(device.purchasedProducts == ["weekly", "weekly"])
        #expect(store.transactions().count == 2)
        store.stopProcessingDueEvents()
        #expect(!store.isProcessingDueEvents)
    }

    @Test("Renewals join the queue of every device of the account until finished")
    func renewalsQueueOnDevices() throws {
        let store = SimulatedStore(configuration: catalog, lane: .manual)
        let device = RecordingDevice("phone")
        let connection = store.connect(deviceID: device.deviceID, frontEnd: "tests", listener: device)
        defer { withExtendedLifetime(connection) {} }
        try store.buyProduct("weekly")
        try store.advance(by: 7 * day)
        store.runUntilIdle()
        #expect(device.purchasedProducts == ["weekly", "weekly"])
        let unfinished = store.unfinishedTransactions(deviceID: "phone")
        #expect(unfinished.count == 2)
        #expect(unfinished.last?.originalID == unfinished.first?.id, "the renewal names the first purchase")
        #expect(unfinished.allSatisfy { $0.state == .purchased })
    }

    @Test("A purchase made elsewhere is recorded without a device and charged once for a non-consumable")
    func buyProductRules() throws {
        let store = SimulatedStore(configuration: catalog, lane: .manual)
        let first = try store.buyProduct("pro")
        #expect(first.deviceID == nil)
        #expect(first.state == .purchased)
        let again = try store.buyProduct("pro")
        #expect(again.id == first.id, "an owned non-consumable is not charged twice")
        #expect(throws: StoreSimulatorError(.unknownProduct, "")) { try store.buyProduct("nope") }
        #expect(throws: StoreSimulatorError(.invalidAction, "")) { try store.buyProduct("coins", quantity: 11) }
        #expect(try store.buyProduct("coins", quantity: 10).quantity == 10)
    }

    @Test("A refund that leaves the customer without the product tells the account's devices")
    func refundRevocations() throws {
        let store = SimulatedStore(configuration: catalog, lane: .manual)
        let device = RecordingDevice("phone")
        let connection = store.connect(deviceID: device.deviceID, frontEnd: "tests", listener: device)
        defer { withExtendedLifetime(connection) {} }
        let weekly = try store.buyProduct("weekly")
        try store.expireSubscription(productID: "weekly")
        let refunded = try store.refund(weekly.id, reason: .developerIssue)
        #expect(refunded.revocationReason == .developerIssue)
        #expect(refunded.cancellationDate == store.now)
        store.runUntilIdle()
        #expect(
            Array(device.events.suffix(2)) == [.entitlementsRevoked(["weekly"]), .refunded([weekly.id])],
            "an ended subscription grants nothing else")

        let coins = try store.buyProduct("coins")
        try store.refund(coins.id)
        store.runUntilIdle()
        // A consumable revokes nothing; the refund itself is still told (StoreKit 2 passes it to Transaction.updates).
        #expect(device.events.last == .refunded([coins.id]))
        #expect(!device.events.contains(.entitlementsRevoked(["coins"])))
        #expect(throws: StoreSimulatorError(.unknownTransaction, "")) { try store.refund(42) }
    }

    @Test("Subscription actions need a running subscription of an auto-renewable product")
    func subscriptionActionErrors() throws {
        let store = SimulatedStore(configuration: catalog, lane: .manual)
        #expect(throws: StoreSimulatorError(.unknownProduct, "")) { try store.forceRenewal(productID: "nope") }
        #expect(throws: StoreSimulatorError(.invalidProductType, "")) { try store.expireSubscription(productID: "pro") }
        #expect(throws: StoreSimulatorError(.noSubscription, "")) { try store.expireSubscription(productID: "weekly") }
        let pro = try store.buyProduct("pro")
        #expect(throws: StoreSimulatorError(.invalidProductType, "")) {
            try store.setAutoRenew(false, transactionID: pro.id)
        }
        #expect(throws: StoreSimulatorError(.unknownTransaction, "")) { try store.requestPriceIncreaseConsent(9) }
    }

    @Test("Events describe themselves for logs")
    func eventDescription() throws {
        let store = SimulatedStore(configuration: catalog, lane: .manual)
        let first = try store.buyProduct("weekly")
        let event = try #require(store.advance(by: 7 * day).first)
        let renewal = try #require(event.transactionID)
        #expect(
            event.description
                == "2026-01-08T00:00:00Z renewed weekly account=default original=\(first.id) transaction=\(renewal)"
        )
        try store.expireSubscription(productID: "weekly")
        #expect(store.subscriptions().first?.phase == .expired)
        #expect(
            SubscriptionEvent(
                kind: .expired(.refunded), date: store.now, account: "a", groupID: "g", productID: "p", originalID: 1
            ).kindName == "expired(refunded)")
    }
}
