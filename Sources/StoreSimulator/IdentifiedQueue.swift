/// Elements in the order they arrived, each under a 64-bit identifier: what a device's unfinished transactions need.
///
/// Identifiers are found by binary search while they arrive in increasing order (the store allocates them so), and
/// by a linear search after one arrives out of order; removing an element marks its slot empty and drops empty slots
/// from both ends, so a queue that is finished in the order it filled stays compact. Finding, changing and removing
/// one element therefore costs O(log n), appending O(1) amortized, where a plain array costs O(n).
package struct IdentifiedQueue<Element> {
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

    /// The slots from `head` on hold the elements and the empty slots between them; the first and last are full.
    @usableFromInline var slots: [Slot] = []
    @usableFromInline var head = 0
    @usableFromInline var live = 0
    /// Whether the identifiers from `head` on increase strictly, so that binary search finds them.
    @usableFromInline var increasing = true

    /// An empty queue.
    @inlinable
    package init() {}

    /// How many elements the queue holds.
    @inlinable
    package var count: Int { live }

    /// Whether the queue holds no element.
    @inlinable
    package var isEmpty: Bool { live == 0 }

    /// Adds an element at the end.
    @inlinable
    package mutating func append(_ element: Element, id: UInt64) {
        if head < slots.count, slots[slots.count - 1].id >= id { increasing = false }
        slots.append(Slot(id: id, element: element))
        live += 1
    }

    /// The position of the element with an identifier (the first one, should two share it), or `nil`.
    @inlinable
    package func position(of id: UInt64) -> Int? {
        guard live > 0 else { return nil }
        if increasing {
            var low = head
            var high = slots.count
            while low < high {
                let middle = low + (high - low) / 2
                let found = slots[middle].id
                if found == id { return slots[middle].element == nil ? nil : middle }
                if found < id { low = middle + 1 } else { high = middle }
            }
            return nil
        }
        var index = head
        while index < slots.count {
            if slots[index].id == id, slots[index].element != nil { return index }
            index += 1
        }
        return nil
    }

    /// The element at a position from ``position(of:)``.
    @inlinable
    package subscript(position: Int) -> Element {
        get { slots[position].element! }
        _modify { yield &slots[position].element! }
    }

    /// The element with an identifier, or `nil`.
    @inlinable
    package func element(withID id: UInt64) -> Element? {
        position(of: id).map { slots[$0].element! }
    }

    /// Removes and returns the element at a position from ``position(of:)``.
    @inlinable
    @discardableResult
    package mutating func remove(at position: Int) -> Element {
        let element = slots[position].element.take()!
        live -= 1
        compact()
        return element
    }

    /// Removes every element.
    @inlinable
    package mutating func removeAll() {
        slots.removeAll(keepingCapacity: true)
        head = 0
        live = 0
        increasing = true
    }

    /// Removes the elements that satisfy a predicate, keeping the others in order.
    @inlinable
    package mutating func removeAll(where shouldRemove: (Element) throws -> Bool) rethrows {
        var index = head
        while index < slots.count {
            if let element = slots[index].element, try shouldRemove(element) {
                slots[index].element = nil
                live -= 1
            }
            index += 1
        }
        compact()
    }

    /// Calls a body with every element in order; the body may change them.
    @inlinable
    package mutating func updateEach(_ body: (inout Element) throws -> Void) rethrows {
        var index = head
        while index < slots.count {
            if slots[index].element != nil { try body(&slots[index].element!) }
            index += 1
        }
    }

    /// Drops empty slots at both ends, and moves the rest to the front once empty slots take half the storage.
    @inlinable
    mutating func compact() {
        guard live > 0 else { return removeAll() }
        while slots[head].element == nil { head += 1 }
        while slots[slots.count - 1].element == nil { slots.removeLast() }
        let span = slots.count - head
        if head >= 32, head >= span {
            slots.removeSubrange(0..<head)
            head = 0
        } else if span >= 64, span > 2 * live {
            var kept: [Slot] = []
            kept.reserveCapacity(live)
            for slot in slots[head...] where slot.element != nil { kept.append(slot) }
            slots = kept
            head = 0
        }
    }
}

extension IdentifiedQueue: Sequence {
    /// Iterates over the elements in order.
    package struct Iterator: IteratorProtocol {
        @usableFromInline let slots: [Slot]
        @usableFromInline var index: Int

        @inlinable
        init(slots: [Slot], index: Int) {
            self.slots = slots
            self.index = index
        }

        /// The next element, or `nil` at the end.
        @inlinable
        package mutating func next() -> Element? {
            while index < slots.count {
                defer { index += 1 }
                if let element = slots[index].element { return element }
            }
            return nil
        }
    }

    /// An iterator over the elements in order.
    @inlinable
    package func makeIterator() -> Iterator { Iterator(slots: slots, index: head) }

    /// How many elements the queue holds.
    @inlinable
    package var underestimatedCount: Int { live }
}

extension IdentifiedQueue: Sendable where Element: Sendable {}
extension IdentifiedQueue.Slot: Sendable where Element: Sendable {}
