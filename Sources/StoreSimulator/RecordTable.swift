import StoreModels

/// A store's purchase history by transaction identifier: a dictionary that can also say which records changed.
///
/// Reads and writes look like a dictionary's. A durable store turns ``tracksChanges`` on, and every write by key
/// (setting, changing in place, removing) then notes the identifier, so that the state file's table of records is
/// brought up to date row by row (``takeChanges()``) instead of being rewritten whole. An in-memory store leaves it off
/// and pays one branch per write.
struct RecordTable: Sendable {
    typealias Storage = [UInt64: TransactionRecord]

    private var storage: Storage = [:]
    /// Whether writes note the identifiers they change.
    var tracksChanges = false
    /// The identifiers written since the last ``takeChanges()``.
    private var changed = Set<UInt64>()
    /// Whether every record was removed since the last ``takeChanges()`` (``removeAll()``).
    private var cleared = false

    init() {}

    /// A table holding `records` (for example read from a state file), with no changes noted.
    init(_ records: Storage) {
        storage = records
    }

    /// The record with an identifier.
    subscript(id: UInt64) -> TransactionRecord? {
        get { storage[id] }
        set {
            if tracksChanges { changed.insert(id) }
            storage[id] = newValue
        }
        _modify {
            if tracksChanges { changed.insert(id) }
            yield &storage[id]
        }
    }

    /// Every record, in no particular order.
    var values: Storage.Values { storage.values }

    /// The number of records.
    var count: Int { storage.count }

    /// The position of the record with an identifier, for ``isDroppable(at:)`` and ``remove(at:)``.
    func index(forKey id: UInt64) -> Storage.Index? {
        storage.index(forKey: id)
    }

    /// Whether the record at a position is a consumable or failed purchase (what `.receiptOnly` drops once finished),
    /// read in place.
    func isDroppable(at position: Storage.Index) -> Bool {
        storage.values[position].productType == .consumable || storage.values[position].state == .failed
    }

    /// Removes the record at a position.
    mutating func remove(at position: Storage.Index) {
        if tracksChanges { changed.insert(storage.keys[position]) }
        storage.remove(at: position)
    }

    /// Removes every record.
    mutating func removeAll() {
        if tracksChanges {
            cleared = true
            changed.removeAll()
        }
        storage.removeAll()
    }

    /// What changed since the last call: whether everything was removed first, then the identifiers written since;
    /// forgets them.
    mutating func takeChanges() -> (cleared: Bool, changed: Set<UInt64>) {
        defer {
            cleared = false
            changed = []
        }
        return (cleared, changed)
    }
}
