import Foundation
import StoreModels

/// The `subscriptions.year` baseline: the least a simulator must do to produce renewals in time order. A binary heap
/// holds one timer per subscriber; each renewal pops the earliest, counts it, works out the next renewal date and
/// pushes it back.
///
/// With `calendar` the next date is `SubscriptionPeriod.advance(_:by:)` from the subscriber's anchor, the Gregorian
/// month arithmetic the store itself uses; without, a fixed 30-day period (what the heap alone costs).
struct RenewalHeapBaseline {
    private struct Timer {
        var due: Double
        var sequence: UInt64
        var slot: Int

        func precedes(_ other: Timer) -> Bool {
            due < other.due || (due == other.due && sequence < other.sequence)
        }
    }

    private let calendar: Bool
    private let period = SubscriptionPeriod(value: 1, unit: .month)
    private var anchors: [Date] = []
    private var periods: [Int] = []
    private var heap: [Timer] = []
    private var sequence: UInt64 = 0

    /// Creates the heap with one subscriber bought at each of `purchases`, first due one period later.
    init(purchases: [Date], calendar: Bool) {
        self.calendar = calendar
        anchors = purchases
        periods = Array(repeating: 0, count: purchases.count)
        heap.reserveCapacity(purchases.count)
        for slot in purchases.indices { schedule(slot) }
    }

    /// How many renewals fall in `(start, end]` for subscribers bought at `purchases`, on fixed 30-day periods.
    static func fixedPeriodRenewals(purchases: [Date], after start: Date, through end: Date) -> Int {
        let length = 30 * 86_400.0
        return purchases.reduce(0) { total, purchase in
            var count = 0
            var due = purchase.timeIntervalSinceReferenceDate + length
            while due <= end.timeIntervalSinceReferenceDate {
                if due > start.timeIntervalSinceReferenceDate { count += 1 }
                due += length
            }
            return total + count
        }
    }

    /// Renews every subscriber whose timer falls due at or before `limit`, in time order; returns how many renewals.
    mutating func advance(to limit: Date) -> Int {
        let bound = limit.timeIntervalSinceReferenceDate
        var renewals = 0
        while let top = heap.first, top.due <= bound {
            popTop()
            renewals += 1
            schedule(top.slot)
        }
        return renewals
    }

    private mutating func schedule(_ slot: Int) {
        periods[slot] += 1
        let due =
            calendar
            ? period.advance(anchors[slot], by: periods[slot]).timeIntervalSinceReferenceDate
            : anchors[slot].timeIntervalSinceReferenceDate + Double(periods[slot]) * 30 * 86_400
        push(Timer(due: due, sequence: sequence, slot: slot))
        sequence &+= 1
    }

    private mutating func push(_ timer: Timer) {
        heap.append(timer)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        let count = heap.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            let right = left + 1
            var first = left
            if right < count, heap[right].precedes(heap[left]) { first = right }
            guard heap[first].precedes(heap[parent]) else { break }
            heap.swapAt(first, parent)
            parent = first
        }
    }
}
