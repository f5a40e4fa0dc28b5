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

    private enum CodingKeys: String, CodingKey {
        case slots, states, scheduled, heap, nextSequence
    }

    private var slots: [String: Int] = [:]
    private var states: [SubscriptionState?] = []
    /// The instant each slot is scheduled at (seconds since the reference date), if any.
    private var scheduled: [Double?] = []
    private var heap: [Entry] = []
    private var nextSequence: UInt64 = 0
    /// The account each slot is listed under in ``accountSlots`` (`nil` until the slot first holds a subscription).
    private var slotAccounts: [String?] = []
    /// The slots of each account's subscriptions, so that one account's subscriptions are found without a look at
    /// every subscription of the store. Derived from the states: not encoded, rebuilt on decoding.
    private var accountSlots: [String: [Int]] = [:]
    /// The slots whose subscription began with or was last charged by a record (its `originalID` and its
    /// `latestRecordID`), by that record, so that a transaction's subscription is found without a look at every
    /// subscription. Derived from the states: not encoded, rebuilt on decoding.
    private var recordSlots: [UInt64: [Int]] = [:]
    /// Whether writes note the slots they change, so that a state file's table of subscriptions is brought up to date
    /// row by row (``takeChanges()``); off for an in-memory store.
    var tracksChanges = false
    private var changedSlots = Set<Int>()
    private var cleared = false

    init() {}

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
                slotAccounts.append(nil)
                self[slot: slot] = newValue
            }
        }
    }

    /// The subscription in a slot (``popDue(notAfter:)`` gives slots).
    subscript(slot slot: Int) -> SubscriptionState? {
        get { states[slot] }
        set {
            if tracksChanges { changedSlots.insert(slot) }
            let oldOriginal = states[slot]?.originalID
            let oldLatest = states[slot]?.latestRecordID
            states[slot] = newValue
            let newOriginal = newValue?.originalID
            let newLatest = newValue?.latestRecordID
            if oldOriginal != newOriginal || oldLatest != newLatest {
                // The slot is filed once under each record of {original, latest}: off the old ones it no longer
                // names, under the new ones it did not name.
                if let id = oldOriginal, id != newOriginal, id != newLatest { unfileSlot(slot, by: id) }
                if let id = oldLatest, id != oldOriginal, id != newOriginal, id != newLatest {
                    unfileSlot(slot, by: id)
                }
                if let id = newOriginal, id != oldOriginal, id != oldLatest { fileSlot(slot, by: id) }
                if let id = newLatest, id != newOriginal, id != oldOriginal, id != oldLatest { fileSlot(slot, by: id) }
            }
            if let newValue, slotAccounts[slot] != newValue.account { listSlot(slot, under: newValue.account) }
            let due = newValue?.nextEventDate?.timeIntervalSinceReferenceDate
            guard scheduled[slot] != due else { return }
            scheduled[slot] = due
            if let due { push(Entry(due: due, sequence: nextSequence, slot: slot)) }
            nextSequence &+= 1
        }
    }

    /// Every subscription, in no particular order.
    var values: [SubscriptionState] { states.compactMap { $0 } }

    /// The subscriptions of one account, in no particular order, found through the account's slots.
    func values(of account: String) -> [SubscriptionState] {
        guard let listed = accountSlots[account] else { return [] }
        return listed.compactMap { slot in states[slot].flatMap { $0.account == account ? $0 : nil } }
    }

    /// Lists a slot under the account of the subscription it now holds (a slot's key names one account, so this
    /// happens once per slot).
    private mutating func listSlot(_ slot: Int, under account: String) {
        slotAccounts[slot] = account
        accountSlots[account, default: []].append(slot)
    }

    /// The subscriptions that began with a transaction (whose `originalID` it is), in slot order: the order of
    /// ``visit(_:)``.
    func values(originalID: UInt64) -> [SubscriptionState] {
        guard let listed = recordSlots[originalID] else { return [] }
        return listed.sorted().compactMap { slot in states[slot].flatMap { $0.originalID == originalID ? $0 : nil } }
    }

    /// Files a slot under the records its subscription names.
    private mutating func fileSlot(_ slot: Int, by state: SubscriptionState) {
        fileSlot(slot, by: state.originalID)
        if state.latestRecordID != state.originalID { fileSlot(slot, by: state.latestRecordID) }
    }

    /// Files a slot under a record it names.
    private mutating func fileSlot(_ slot: Int, by id: UInt64) {
        recordSlots[id, default: []].append(slot)
    }

    /// Takes a slot off the list of a record, forgetting an emptied list.
    private mutating func unfileSlot(_ slot: Int, by id: UInt64) {
        guard let index = recordSlots.index(forKey: id) else { return }
        recordSlots.values[index].removeAll { $0 == slot }
        if recordSlots.values[index].isEmpty { recordSlots.remove(at: index) }
    }

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
        if tracksChanges {
            cleared = true
            changedSlots.removeAll()
        }
        slots.removeAll()
        states.removeAll()
        scheduled.removeAll()
        heap.removeAll()
        slotAccounts.removeAll()
        accountSlots.removeAll()
        recordSlots.removeAll()
    }

    /// Forgets the subscriptions that began with or were last charged by one of the records `ids`, looking only at
    /// those.
    mutating func removeAll(naming ids: Set<UInt64>) {
        let slots = Set(ids.flatMap { recordSlots[$0] ?? [] }).sorted()
        for slot in slots {
            if let state = states[slot], ids.contains(state.originalID) || ids.contains(state.latestRecordID) {
                self[slot: slot] = nil
            }
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
        if tracksChanges { changedSlots.insert(top.slot) }
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

// MARK: Persistence

extension SubscriptionBook {
    /// One slot as a state file keeps it: the subscription's key and state, and when it is next due with the sequence
    /// that orders it among subscriptions due at the same instant.
    struct SlotRow: Codable, Sendable, Equatable {
        var key: String
        var state: SubscriptionState?
        var due: Double?
        var sequence: UInt64?
    }

    /// The number of slots (rows), including emptied ones.
    var slotCount: Int { states.count }

    /// The sequence the next scheduling gets.
    var sequenceCounter: UInt64 { nextSequence }

    /// For each scheduled slot, the sequence of the heap entry that will surface for it: the lowest among its entries
    /// at its scheduled instant (older entries at other instants are skipped when they surface).
    private func effectiveSequences() -> [Int: UInt64] {
        var sequences: [Int: UInt64] = [:]
        for entry in heap where scheduled[entry.slot] == entry.due {
            if let known = sequences[entry.slot], known <= entry.sequence { continue }
            sequences[entry.slot] = entry.sequence
        }
        return sequences
    }

    /// The rows of some slots (all when `slots` is `nil`), by slot.
    func rows(_ wanted: Set<Int>?) -> [Int: SlotRow] {
        var keys = [String](repeating: "", count: states.count)
        for (key, slot) in slots { keys[slot] = key }
        let sequences = effectiveSequences()
        var rows: [Int: SlotRow] = [:]
        for slot in states.indices where wanted?.contains(slot) ?? true {
            let due = scheduled[slot]
            rows[slot] = SlotRow(
                key: keys[slot], state: states[slot], due: due, sequence: due == nil ? nil : sequences[slot])
        }
        return rows
    }

    /// A book rebuilt from its rows (slots `0..<rows.count`, in order) and its sequence counter; it schedules
    /// subscriptions due at the same instant in the order the original book did.
    init(rows: [SlotRow], nextSequence: UInt64) {
        for (slot, row) in rows.enumerated() {
            slots[row.key] = slot
            states.append(row.state)
            scheduled.append(row.due)
            slotAccounts.append(nil)
            if let account = row.state?.account { listSlot(slot, under: account) }
            if let state = row.state { fileSlot(slot, by: state) }
            if let due = row.due { push(Entry(due: due, sequence: row.sequence ?? 0, slot: slot)) }
        }
        self.nextSequence = nextSequence
    }

    /// Decodes a book encoded by ``encode(to:)`` (or in the earlier form, with every heap entry), and lists its
    /// slots by account again.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        slots = try container.decode([String: Int].self, forKey: .slots)
        states = try container.decode([SubscriptionState?].self, forKey: .states)
        scheduled = try container.decode([Double?].self, forKey: .scheduled)
        heap = try container.decode([Entry].self, forKey: .heap)
        nextSequence = try container.decode(UInt64.self, forKey: .nextSequence)
        guard scheduled.count == states.count, slots.values.allSatisfy(states.indices.contains),
            heap.allSatisfy({ states.indices.contains($0.slot) })
        else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: container.codingPath,
                    debugDescription: "the subscriptions' slots, schedule and heap do not match"))
        }
        slotAccounts = Array(repeating: nil, count: states.count)
        for (slot, state) in states.enumerated() {
            if let account = state?.account { listSlot(slot, under: account) }
            if let state { fileSlot(slot, by: state) }
        }
    }

    /// What changed since the last call: whether every subscription was forgotten first, then the slots written
    /// since; forgets them.
    mutating func takeChanges() -> (cleared: Bool, slots: Set<Int>) {
        defer {
            cleared = false
            changedSlots = []
        }
        return (cleared, changedSlots)
    }

    /// Encodes the book in a canonical form: one heap entry per scheduled slot, in the order they will surface, so
    /// that two books that behave alike encode alike. Decoding (synthesized) reads this form and the earlier one.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(slots, forKey: .slots)
        try container.encode(states, forKey: .states)
        try container.encode(scheduled, forKey: .scheduled)
        let entries = effectiveSequences().map { Entry(due: scheduled[$0.key]!, sequence: $0.value, slot: $0.key) }
        try container.encode(entries.sorted { $0.precedes($1) }, forKey: .heap)
        try container.encode(nextSequence, forKey: .nextSequence)
    }
}
