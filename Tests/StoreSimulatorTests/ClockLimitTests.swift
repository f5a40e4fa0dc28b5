import Dispatch
import Foundation
import StoreModels
import StoreSimulator
import Synchronization
import Testing

private let day: TimeInterval = 86_400

/// A daily subscription: the shortest period, so the most renewals a span of time can hold.
private let dailyCatalog = StoreConfiguration(
    catalog: StoreCatalog(products: [
        ProductDefinition(
            id: "daily",
            type: .autoRenewableSubscription,
            price: 0.99,
            subscription: SubscriptionInfo(
                groupID: "d", groupLevel: 1, period: SubscriptionPeriod(value: 1, unit: .day))
        )
    ])
)

/// What a store shows of its history and clock, to check that a refused move changed nothing.
private struct Fingerprint: Equatable {
    let now: Date
    let transactions: [TransactionRecord]
    let subscriptions: [SubscriptionState]

    init(_ store: SimulatedStore) {
        now = store.now
        transactions = store.allTransactions()
        subscriptions = store.subscriptions()
    }
}

@Suite("Moving the clock: limits and huge values", .timeLimit(.minutes(1)))
struct ClockLimitTests {
    @Test("Advancing 99999999999999 days after buying a subscription is refused at once, and changes nothing")
    func hugeAdvanceAfterPurchase() throws {
        let store = SimulatedStore(lane: .manual)
        try store.buyProduct("com.example.premium.monthly")
        let before = Fingerprint(store)
        let error = #expect(throws: StoreSimulatorError.self) {
            _ = try store.advance(by: 99_999_999_999_999 * day)
        }
        #expect(error?.code == .dateOutOfRange)
        #expect(error?.detail.contains("9999-12-31T23:59:59Z") == true)
        #expect(Fingerprint(store) == before)
        // The store goes on working: a month renews once.
        let events = try store.advance(by: 31 * day)
        #expect(events.filter { $0.kind == .renewed }.count == 1)
    }

    @Test(
        "Infinite, NaN and out-of-range moves are clear errors, not traps",
        arguments: [Double.infinity, -Double.infinity, Double.nan, Double.greatestFiniteMagnitude, 1e300]
    )
    func nonFiniteIntervals(interval: Double) throws {
        let store = SimulatedStore(lane: .manual)
        try store.buyProduct("com.example.premium.monthly")
        let before = Fingerprint(store)
        #expect(throws: StoreSimulatorError(.dateOutOfRange, "")) { _ = try store.advance(by: interval) }
        if interval != -Double.infinity {
            #expect(throws: StoreSimulatorError(.dateOutOfRange, "")) {
                _ = try store.advance(to: Date(timeIntervalSinceReferenceDate: interval))
            }
        }
        #expect(Fingerprint(store) == before)
    }

    @Test("A manual clock stops at its latest date instead of overflowing; NaN leaves it where it is")
    func manualClockClamps() {
        let clock = ManualClock()
        clock.advance(by: .nan)
        #expect(clock.now == ManualClock.defaultStart)
        clock.advance(by: .infinity)
        #expect(clock.now == ManualClock.latestDate)
        clock.advance(by: 1)
        #expect(clock.now == ManualClock.latestDate)
        let other = ManualClock()
        other.advance(to: Date(timeIntervalSinceReferenceDate: .infinity))
        #expect(other.now == ManualClock.latestDate)
        #expect(ManualClock(start: .distantFuture.addingTimeInterval(1e12)).now == ManualClock.latestDate)
    }

    @Test("A time-rate clock moves forward by an offset, never past its latest date, and a bad rate stops it")
    func timeRateClockAdvances() {
        let clock = TimeRateClock(rate: 1)
        let start = clock.now
        clock.advance(by: 40 * day)
        #expect(clock.now >= start.addingTimeInterval(40 * day))
        #expect(clock.now < start.addingTimeInterval(41 * day))
        clock.advance(by: .infinity)
        #expect(clock.now == ManualClock.latestDate)
        let stopped = TimeRateClock(rate: .infinity)
        #expect(stopped.rate == 0)
        #expect(stopped.now <= SystemClock().now)
    }

    @Test("Due-event checks at an infinite or NaN interval start without trapping")
    func dueEventIntervals() {
        let store = SimulatedStore(clock: TimeRateClock(), lane: .dispatch(DispatchQueue(label: "limits")))
        for interval in [Double.infinity, .nan, -1, 1e300] {
            store.startProcessingDueEvents(every: interval)
            #expect(store.isProcessingDueEvents)
        }
        store.stopProcessingDueEvents()
    }

    @Test("A move that would renew more than the limit is refused before anything is applied")
    func tooManyRenewals() throws {
        let store = SimulatedStore(configuration: dailyCatalog, lane: .manual)
        try store.buyProduct("daily")
        let before = Fingerprint(store)
        // Year 9999 is about 2.9 million days away: more than a million daily renewals.
        let error = #expect(throws: StoreSimulatorError.self) { _ = try store.advance(to: ManualClock.latestDate) }
        #expect(error?.code == .tooManyRenewals)
        #expect(error?.detail.contains("shorter steps") == true)
        #expect(error?.detail.contains(String(SimulatedStore.maximumRenewalsPerAdvance)) == true)
        #expect(Fingerprint(store) == before)
        // Within the limit the same store renews as usual.
        let events = try store.advance(by: 10 * day)
        #expect(events.filter { $0.kind == .renewed }.count == 10)
    }

    @Test("The limit counts renewals across the store, not per subscription")
    func limitAcrossAccounts() throws {
        let store = SimulatedStore(configuration: dailyCatalog, lane: .manual)
        // 1500 subscribers, each renewing daily: two years are over a million renewals in all.
        for index in 0..<1500 { try store.buyProduct("daily", account: "user\(index)") }
        let count = store.allTransactions().count
        #expect(throws: StoreSimulatorError(.tooManyRenewals, "")) { _ = try store.advance(by: 730 * day) }
        #expect(store.allTransactions().count == count)
        #expect(store.now == ManualClock.defaultStart)
        #expect(try store.advance(by: 2 * day).count == 3000)
    }
}
