import StoreModels

/// A store's purchase history by transaction identifier: a dictionary that can also say which records changed.
///
/// Reads and writes look like a dictionary's. A durable store turns ``tracksChanges`` on, and every write by key
/// (setting, changing in place, removing) then notes the identifier, so that the state file's table of records is
/// brought up to date row by row (``takeChanges()``) instead of being rewritten whole. An in-memory store leaves it off
/// and pays one branch per write.
struct RecordTable: Sendable {
    /// The records in one contiguous array, in no particular order (never `nil` between calls: the array is an
    /// array of optionals so that a write by key can change a record in place), and the position of each by
    /// identifier. Half the memory of a dictionary of the 216-byte records, written in order when a state file is
    /// read, and scanned without hashing.
    private var rows: [TransactionRecord?] = []
    private var positions: [UInt64: Int] = [:]
    /// Whether writes note the identifiers they change.
    var tracksChanges = false
    /// The identifiers written since the last ``takeChanges()``.
    private var changed = Set<UInt64>()
    /// Whether every record was removed since the last ``takeChanges()`` (``removeAll()``).
    private var cleared = false

    init() {}

    /// A table holding `records` (for example read from a state file), with no changes noted.
    init(_ records: [UInt64: TransactionRecord]) {
        reserveCapacity(records.count)
        for (id, record) in records { self[id] = record }
    }

    /// Makes room for `count` records.
    mutating func reserveCapacity(_ count: Int) {
        rows.reserveCapacity(count)
        positions.reserveCapacity(count)
    }

    /// The record with an identifier.
    subscript(id: UInt64) -> TransactionRecord? {
        get { positions[id].flatMap { rows[$0] } }
        set {
            if tracksChanges { changed.insert(id) }
            guard let newValue else {
                if let position = positions[id] { removeRow(at: position) }
                return
            }
            // One hash for a new record (every one, when a state file is read).
            if let position = positions.updateValue(rows.count, forKey: id) {
                positions[id] = position
                rows[position] = newValue
            } else {
                rows.append(newValue)
            }
        }
        _modify {
            if tracksChanges { changed.insert(id) }
            if let position = positions[id] {
                defer { if rows[position] == nil { removeRow(at: position) } }
                yield &rows[position]
            } else {
                var added: TransactionRecord? = nil
                defer {
                    if let added {
                        positions[id] = rows.count
                        rows.append(added)
                    }
                }
                yield &added
            }
        }
    }

    /// Every record, in no particular order.
    var values: Values { Values(rows: rows) }

    /// The number of records.
    var count: Int { rows.count }

    /// The position of the record with an identifier, for ``isDroppable(at:)`` and ``remove(at:)``.
    func index(forKey id: UInt64) -> Int? {
        positions[id]
    }

    /// Whether the record at a position is a consumable or failed purchase (what `.receiptOnly` drops once finished),
    /// read in place.
    func isDroppable(at position: Int) -> Bool {
        rows[position]!.productType == .consumable || rows[position]!.state == .failed
    }

    /// Removes the record at a position.
    mutating func remove(at position: Int) {
        if tracksChanges { changed.insert(rows[position]!.id) }
        removeRow(at: position)
    }

    /// Removes every record.
    mutating func removeAll() {
        if tracksChanges {
            cleared = true
            changed.removeAll()
        }
        rows.removeAll()
        positions.removeAll()
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

    /// Removes the row at a position (whatever it holds), moving the last row into its place.
    private mutating func removeRow(at position: Int) {
        let last = rows.count - 1
        if let id = rows[position]?.id { positions[id] = nil }
        if position != last {
            rows.swapAt(position, last)
            if let moved = rows[position]?.id { positions[moved] = position }
        }
        rows.removeLast()
    }

    /// The records of a table, in no particular order: a collection that reads them in place.
    struct Values: RandomAccessCollection, Sendable {
        fileprivate let rows: [TransactionRecord?]

        var startIndex: Int { rows.startIndex }
        var endIndex: Int { rows.endIndex }
        subscript(position: Int) -> TransactionRecord { rows[position]! }
    }
}
