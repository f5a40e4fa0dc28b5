/// A set that, while ``tracksChanges`` is on, notes the elements inserted and removed, so that a state file's table of
/// it is brought up to date with the rows that changed (``StoreTables``) instead of being compared with the file. An
/// in-memory store leaves tracking off and pays one branch per write.
struct TrackedSet<Element: Hashable & Sendable>: Sendable, Sequence, ExpressibleByArrayLiteral {
    /// The elements.
    private(set) var elements: Set<Element>
    /// Whether writes note their elements.
    var tracksChanges = false
    /// The elements inserted or removed since the last ``takeChanges()``.
    private var changed = Set<Element>()

    /// A set holding `elements`, with no changes noted.
    init(_ elements: Set<Element> = []) {
        self.elements = elements
    }

    init(arrayLiteral elements: Element...) {
        self.init(Set(elements))
    }

    /// Inserts an element; notes it if it was not there.
    @discardableResult
    mutating func insert(_ element: Element) -> (inserted: Bool, memberAfterInsert: Element) {
        let result = elements.insert(element)
        if tracksChanges, result.inserted { changed.insert(element) }
        return result
    }

    /// Removes an element; notes it if it was there.
    @discardableResult
    mutating func remove(_ element: Element) -> Element? {
        let removed = elements.remove(element)
        if tracksChanges, removed != nil { changed.insert(element) }
        return removed
    }

    func contains(_ element: Element) -> Bool { elements.contains(element) }
    var isEmpty: Bool { elements.isEmpty }
    var count: Int { elements.count }

    func makeIterator() -> Set<Element>.Iterator { elements.makeIterator() }

    /// The elements inserted or removed since the last call (each now in the set or not); forgets them.
    mutating func takeChanges() -> Set<Element> {
        defer { changed = [] }
        return changed
    }
}
