/// Elements in the order they arrived, each under a 64-bit identifier: what a device's unfinished transactions need.
///
/// Identifiers are found by binary search while they arrive in increasing order (the store allocates them so), and
/// by a linear search after one arrives out of order; removing an element empties its slot, and empty slots at either
/// end of the window in use are skipped, so a queue finished in the order it filled stays compact. Finding, changing
/// and removing one element therefore costs O(log n) and appending O(1) amortized, where a plain array costs O(n).
///
/// The storage only grows: slots are reused in place (never removed from the array), which keeps every operation on
/// the fast, specialized paths of `Array`.
public struct IdentifiedQueue<Element> {
    @usableFromInline
    struct Slot {
        @usableFromInline var id: UInt64
        @usableFromInline var element: Element?

        @inlinable
        init(id: UInt64, element: Element?) {
            self.id = id
            self.element = element
        }
    }

    /// `slots[head..<tail]` is the window in use: the elements and the empty slots between them, its first and last
    /// slots full. Slots outside it are empty.
    @usableFromInline var slots: [Slot] = []
    @usableFromInline var head = 0
    @usableFromInline var tail = 0
    @usableFromInline var live = 0
    /// Whether the identifiers in the window increase strictly, so that binary search finds them.
    @usableFromInline var increasing = true

    /// An empty queue.
    @inlinable
    public init() {}

    /// How many elements the queue holds.
    @inlinable
    public var count: Int { live }

    /// Whether the queue holds no element.
    @inlinable
    public var isEmpty: Bool { live == 0 }

    /// Adds an element at the end.
    @inlinable
    public mutating func append(_ element: Element, id: UInt64) {
        if live > 0, slots[tail - 1].id >= id { increasing = false }
        if tail == slots.count, head > 0, head >= tail - head { slide() }
        if tail == slots.count {
            slots.append(Slot(id: id, element: element))
        } else {
            slots[tail].id = id
            slots[tail].element = element
        }
        tail += 1
        live += 1
    }

    /// The position of the element with an identifier (the first one, should two share it), or `nil`.
    @inlinable
    public func position(of id: UInt64) -> Int? {
        guard live > 0 else { return nil }
        if increasing {
            var low = head
            var high = tail
            while low < high {
                let middle = low + (high - low) / 2
                let found = slots[middle].id
                if found == id { return slots[middle].element == nil ? nil : middle }
                if found < id { low = middle + 1 } else { high = middle }
            }
            return nil
        }
        var index = head
        while index < tail {
            if slots[index].id == id, slots[index].element != nil { return index }
            index += 1
        }
        return nil
    }

    /// The element at a position from ``position(of:)``.
    @inlinable
    public subscript(position: Int) -> Element {
        get { slots[position].element! }
        _modify { yield &slots[position].element! }
    }

    /// The element with an identifier, or `nil`.
    @inlinable
    public func element(withID id: UInt64) -> Element? {
        position(of: id).map { slots[$0].element! }
    }

    /// Removes and returns the element at a position from ``position(of:)``.
    @inlinable
    @discardableResult
    public mutating func remove(at position: Int) -> Element {
        let element = slots[position].element.take()!
        live -= 1
        trim()
        return element
    }

    /// Removes the element at a position from ``position(of:)``, destroying it in place.
    @inlinable
    public mutating func discard(at position: Int) {
        slots[position].element = nil
        live -= 1
        trim()
    }

    /// Removes every element.
    @inlinable
    public mutating func removeAll() {
        for index in head..<tail { slots[index].element = nil }
        head = 0
        tail = 0
        live = 0
        increasing = true
    }

    /// Removes the elements that satisfy a predicate, keeping the others in order.
    @inlinable
    public mutating func removeAll(where shouldRemove: (Element) throws -> Bool) rethrows {
        for index in head..<tail {
            if let element = slots[index].element, try shouldRemove(element) {
                slots[index].element = nil
                live -= 1
            }
        }
        trim()
    }

    /// Calls a body with every element in order; the body may change them.
    @inlinable
    public mutating func updateEach(_ body: (inout Element) throws -> Void) rethrows {
        for index in head..<tail where slots[index].element != nil { try body(&slots[index].element!) }
    }

    /// Narrows the window to its first and last elements; once empty slots fill most of it, moves the elements to the
    /// front of the storage.
    @inlinable
    mutating func trim() {
        guard live > 0 else {
            head = 0
            tail = 0
            increasing = true
            return
        }
        while slots[head].element == nil { head += 1 }
        while slots[tail - 1].element == nil { tail -= 1 }
        if tail - head >= 64, tail - head > 2 * live { slide() }
    }

    /// Moves the elements to the front of the storage, in order, leaving no empty slot between them.
    @inlinable
    mutating func slide() {
        var kept = 0
        for index in head..<tail where slots[index].element != nil {
            if index != kept {
                slots[kept] = slots[index]
                slots[index].element = nil
            }
            kept += 1
        }
        head = 0
        tail = kept
    }
}

extension IdentifiedQueue: Sequence {
    /// Iterates over the elements in order.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let slots: [Slot]
        @usableFromInline var index: Int
        @usableFromInline let end: Int

        @inlinable
        init(slots: [Slot], index: Int, end: Int) {
            self.slots = slots
            self.index = index
            self.end = end
        }

        /// The next element, or `nil` at the end.
        @inlinable
        public mutating func next() -> Element? {
            while index < end {
                defer { index += 1 }
                if let element = slots[index].element { return element }
            }
            return nil
        }
    }

    /// An iterator over the elements in order.
    @inlinable
    public func makeIterator() -> Iterator { Iterator(slots: slots, index: head, end: tail) }

    /// How many elements the queue holds.
    @inlinable
    public var underestimatedCount: Int { live }
}

extension IdentifiedQueue: Sendable where Element: Sendable {}
extension IdentifiedQueue.Slot: Sendable where Element: Sendable {}
