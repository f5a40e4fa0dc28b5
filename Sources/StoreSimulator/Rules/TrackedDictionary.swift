/// A dictionary that, while ``tracksChanges`` is on, notes the keys written, so that a state file's table of it is
/// brought up to date with the rows that changed (``StoreTables``) instead of being compared with the file row by
/// row. An in-memory store leaves tracking off and pays one branch per write.
struct TrackedDictionary<Key: Hashable & Sendable, Value: Sendable>: Sendable, Sequence,
    ExpressibleByDictionaryLiteral
{
    /// The entries.
    private(set) var dictionary: [Key: Value]
    /// Whether writes note their keys.
    var tracksChanges = false
    /// The keys written since the last ``takeChanges()``.
    private var changed = Set<Key>()

    /// A dictionary holding `dictionary`, with no changes noted.
    init(_ dictionary: [Key: Value] = [:]) {
        self.dictionary = dictionary
    }

    init(dictionaryLiteral elements: (Key, Value)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// The value with a key; writing one (`nil` removes it) notes the key.
    subscript(key: Key) -> Value? {
        get { dictionary[key] }
        set {
            if tracksChanges { changed.insert(key) }
            dictionary[key] = newValue
        }
    }

    var isEmpty: Bool { dictionary.isEmpty }
    var count: Int { dictionary.count }
    var keys: Dictionary<Key, Value>.Keys { dictionary.keys }
    var values: Dictionary<Key, Value>.Values { dictionary.values }

    func makeIterator() -> Dictionary<Key, Value>.Iterator { dictionary.makeIterator() }

    /// The keys written since the last call (each now holding its value, or none if it was removed); forgets them.
    mutating func takeChanges() -> Set<Key> {
        defer { changed = [] }
        return changed
    }
}
