import Foundation

/// The subscriptions of a store by account and group, with a time-ordered schedule of when each next needs the store's
/// attention (a renewal or expiry, a billing retry attempt, the end of a grace period or of billing retry).
///
/// Reads and writes by key look like a dictionary's. Every write reschedules the subscription if its next event moved,
/// so moving the clock pops due subscriptions off a binary heap instead of scanning them all: a year of renewals for
/// many subscribers costs a few heap operations per renewal. Each subscription has a slot number, so the heap and the
/// store's due-event loop work without hashing keys. Outdated heap entries are skipped when they surface.
struct SubscriptionBook: Sendable, Codable {
    private struct Entry: Sendable, Codable {
        var due: Double
        var sequence: UInt64
        var slot: Int

        func precedes(_ other: Entry) -> Bool {
            due < other.due || (due == other.due && sequence < other.sequence)
        }
    }

    private var slots: [String: Int] = [:]
    private var states: [SubscriptionState?] = []
    /// The instant each slot is scheduled at (seconds since the reference date), if any.
    private var scheduled: [Double?] = []
    private var heap: [Entry] = []
    private var nextSequence: UInt64 = 0

    /// The subscription with a key (account + newline + group).
    subscript(key: String) -> SubscriptionState? {
        get { slots[key].flatMap { states[$0] } }
        set {
            if let slot = slots[key] {
                self[slot: slot] = newValue
            } else if let newValue {
                let slot = states.count
                slots[key] = slot
                states.append(nil)
                scheduled.append(nil)
                self[slot: slot] = newValue
            }
        }
    }

    /// The subscription in a slot (``popDue(notAfter:)`` gives slots).
    subscript(slot slot: Int) -> SubscriptionState? {
        get { states[slot] }
        set {
            states[slot] = newValue
            let due = newValue?.nextEventDate?.timeIntervalSinceReferenceDate
            guard scheduled[slot] != due else { return }
            scheduled[slot] = due
            if let due { push(Entry(due: due, sequence: nextSequence, slot: slot)) }
            nextSequence &+= 1
        }
    }

    /// Every subscription, in no particular order.
    var values: [SubscriptionState] { states.compactMap { $0 } }

    /// Calls `body` with every subscription, in no particular order, without copying them into an array.
    func visit(_ body: (SubscriptionState) -> Void) {
        for case let state? in states { body(state) }
    }

    /// Calls `body` with every subscription whose next event falls due at or before `limit`, in the order ``visit(_:)``
    /// takes them, found through the schedule instead of a look at every subscription: the heap is walked only where
    /// its entries are due by `limit` (an entry is never due before its parent).
    func visitDue(notAfter limit: Date, _ body: (SubscriptionState) -> Void) {
        let bound = limit.timeIntervalSinceReferenceDate
        var due: [Int] = []
        var pending = heap.isEmpty ? [] : [0]
        while let index = pending.popLast() {
            let entry = heap[index]
            guard entry.due <= bound else { continue }
            // An outdated entry (its subscription rescheduled since) is passed over; its children may be due.
            if scheduled[entry.slot] == entry.due { due.append(entry.slot) }
            let left = 2 * index + 1
            if left < heap.count { pending.append(left) }
            if left + 1 < heap.count { pending.append(left + 1) }
        }
        due.sort()
        var previous: Int?
        for slot in due where slot != previous {
            previous = slot
            if let state = states[slot] { body(state) }
        }
    }

    /// Forgets every subscription.
    mutating func removeAll() {
        slots.removeAll()
        states.removeAll()
        scheduled.removeAll()
        heap.removeAll()
    }

    /// Forgets the subscriptions that match.
    mutating func removeAll(where shouldRemove: (SubscriptionState) -> Bool) {
        for slot in states.indices {
            if let state = states[slot], shouldRemove(state) { self[slot: slot] = nil }
        }
    }

    /// When the earliest scheduled subscription falls due.
    mutating func nextDueDate() -> Date? {
        dropOutdatedEntries()
        return heap.first.map { Date(timeIntervalSinceReferenceDate: $0.due) }
    }

    /// Takes the earliest subscription due at or before `limit` off the schedule, with its slot and the instant it is
    /// due. The caller handles it and writes it back, which schedules its next event.
    mutating func popDue(notAfter limit: Date) -> (slot: Int, due: Date)? {
        dropOutdatedEntries()
        guard let top = heap.first, top.due <= limit.timeIntervalSinceReferenceDate else { return nil }
        popTop()
        scheduled[top.slot] = nil
        return (top.slot, Date(timeIntervalSinceReferenceDate: top.due))
    }

    private mutating func dropOutdatedEntries() {
        while let top = heap.first, scheduled[top.slot] != top.due { popTop() }
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
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
