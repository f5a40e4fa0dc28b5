import Foundation
import StoreModels
import StoreSimulator

extension BenchmarkSuite {
    /// `subscriptions.year`: a year of monthly renewals for many subscribers on the manual clock.
    mutating func addSubscriptionBenchmarks() {
        let options = self.options
        add(
            Benchmark(
                name: "subscriptions.year",
                unit: "renewals/s",
                about: """
                    10,000 accounts subscribe monthly (store.buyProduct, spread over 30 days), then one \
                    store.advance(by: 365 days) on the manual clock renews each 12 times; wall time and renewals \
                    per second. Baseline: a binary heap of one timer per subscriber, popping each renewal in time \
                    order and pushing the next date worked out with SubscriptionPeriod.advance (Calendar).
                    """,
                target: nil,
                body: .custom { _ in try SubscriptionYear.run(options) }
            )
        )
    }
}

/// The body of `subscriptions.year`.
enum SubscriptionYear {
    /// The demo catalog's monthly subscription.
    static let productID = "com.example.premium.monthly"
    /// Seconds in the simulated year.
    static let year: TimeInterval = 365 * 86_400
    /// Seconds over which the subscribers buy, so that their renewals spread over the month.
    static let spread: TimeInterval = 30 * 86_400

    static func run(_ options: RunOptions) throws -> BenchmarkReport {
        let subscribers = options.quick ? 100 : 10_000
        let renewals = subscribers * 12
        let start = ManualClock.defaultStart
        let purchases = (0..<subscribers).map { start.addingTimeInterval(spread * Double($0) / Double(subscribers)) }
        let yearStart = start.addingTimeInterval(spread)
        let yearEnd = yearStart.addingTimeInterval(year)
        let fixedRenewals = RenewalHeapBaseline.fixedPeriodRenewals(
            purchases: purchases, after: yearStart, through: yearEnd)

        let comparison = PairedComparison(
            name: "subscriptions.year",
            unit: "renewals/s",
            about: "a year of monthly renewals for \(subscribers) subscribers against a heap of renewal timers",
            target: nil,
            figure: Workload("store.advance(by: 365 days), \(subscribers) monthly subscribers", items: renewals) {
                let store: SimulatedStore
                do {
                    store = try subscribedStore(subscribers)
                } catch {
                    log("  subscriptions.year: \(error)")
                    return { 0 }
                }
                return {
                    // 12 renewals per subscriber: far within the store's limit on one move.
                    let events = (try? store.advance(by: year)) ?? []
                    var renewed = 0
                    for event in events where event.kind == .renewed { renewed += 1 }
                    blackHole(events)
                    return renewed
                }
            },
            baseline: Workload(
                "binary heap of \(subscribers) timers, next date by SubscriptionPeriod.advance", role: .baseline,
                items: renewals
            ) {
                var heap = RenewalHeapBaseline(purchases: purchases, calendar: true)
                _ = heap.advance(to: yearStart)
                return { heap.advance(to: yearEnd) }
            },
            rows: [
                .baseline(
                    Workload(
                        "binary heap of \(subscribers) timers, fixed 30-day periods (no calendar)", role: .baseline,
                        items: fixedRenewals
                    ) {
                        var heap = RenewalHeapBaseline(purchases: purchases, calendar: false)
                        _ = heap.advance(to: yearStart)
                        return { heap.advance(to: yearEnd) }
                    })
            ]
        )
        var report = try comparison.run(options)
        // The wall time of one simulated year: the renewals over the rate (the fastest sample is the shortest time).
        let seconds = Summary([report.median, report.min, report.max].map { Double(renewals) / $0 })
        report.figures.insert(
            PairedComparison.extra("wall time of the year, \(subscribers) subscribers", unit: "s", seconds), at: 0)
        report.notes.append(
            "\(subscribers) subscribers bought \(productID) over 30 days (one-week free trial, then monthly); the "
                + "timed year produces \(renewals) renewals")
        return report
    }

    /// A store on the manual lane where `subscribers` accounts each bought the monthly subscription, one every
    /// `spread / subscribers` seconds; the clock then stands 30 days after the first purchase.
    static func subscribedStore(_ subscribers: Int) throws -> SimulatedStore {
        let store = SimulatedStore(lane: .manual)
        let step = spread / Double(subscribers)
        for index in 0..<subscribers {
            do {
                try store.buyProduct(productID, account: "subscriber-\(index)")
            } catch {
                throw BenchmarkError("the store would not sell \(productID): \(error)")
            }
            do {
                try store.advance(by: step)
            } catch {
                throw BenchmarkError("the store would not move its clock: \(error)")
            }
        }
        return store
    }
}
