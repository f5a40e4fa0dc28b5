import StoreModels

/// A store's purchase history by transaction identifier: a dictionary that can also say which records changed, with
/// two indexes kept up to date as records are stored and removed: each account's records, and each account's records
/// of each product, in identifier order (oldest first). Questions about one account (its history, its receipt, a
/// restore, whether it owns a product or has subscribed in a group) then cost what that account holds, not what the
/// whole store holds.
///
/// Reads and writes look like a dictionary's. A durable store turns ``tracksChanges`` on, and every write by key
/// (setting, changing in place, removing) then notes the identifier, so that the state file's table of records is
/// brought up to date row by row (``takeChanges()``) instead of being rewritten whole. An in-memory store leaves it off
/// and pays one branch per write.
struct RecordTable: Sendable {
    typealias Storage = [UInt64: TransactionRecord]

    /// Record identifiers in ascending order.
    struct IDs: Sendable, RandomAccessCollection {
        private(set) var ids: [UInt64] = []

        var startIndex: Int { 0 }
        var endIndex: Int { ids.count }
        subscript(position: Int) -> UInt64 { ids[position] }

        /// Adds an identifier; identifiers mostly arrive in ascending order, which appends.
        mutating func insert(_ id: UInt64) {
            guard let last = ids.last, last >= id else { return ids.append(id) }
            let position = ids.partitionPoint(before: id)
            if position < ids.count, ids[position] == id { return }
            ids.insert(id, at: position)
        }

        /// Removes an identifier, keeping the storage for the next ones.
        mutating func remove(_ id: UInt64) {
            if ids.last == id {
                ids.removeLast()
                return
            }
            let position = ids.partitionPoint(before: id)
            if position < ids.count, ids[position] == id { ids.remove(at: position) }
        }
    }

    /// The records of one account, all of them and by product.
    struct Account: Sendable {
        var all = IDs()
        var byProduct: [String: IDs] = [:]

        mutating func add(_ id: UInt64, productID: String) {
            all.insert(id)
            byProduct[productID, default: IDs()].insert(id)
        }

        mutating func remove(_ id: UInt64, productID: String) {
            all.remove(id)
            byProduct[productID]?.remove(id)
        }
    }

    private var storage: Storage = [:]
    private var accounts: [String: Account] = [:]
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
        for record in records.values {
            accounts[record.account, default: Account()].add(record.id, productID: record.productID)
        }
    }

    /// The record with an identifier.
    subscript(id: UInt64) -> TransactionRecord? {
        get { storage[id] }
        set {
            if tracksChanges { changed.insert(id) }
            let old: TransactionRecord?
            if let newValue {
                old = storage.updateValue(newValue, forKey: id)
            } else {
                old = storage.removeValue(forKey: id)
            }
            if let old, old.account != newValue?.account || old.productID != newValue?.productID {
                accounts[old.account]?.remove(id, productID: old.productID)
            } else if old != nil {
                return
            }
            guard let newValue else { return }
            accounts[newValue.account, default: Account()].add(id, productID: newValue.productID)
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
        let (id, record) = storage.remove(at: position)
        accounts[record.account]?.remove(id, productID: record.productID)
    }

    /// Removes every record.
    mutating func removeAll() {
        if tracksChanges {
            cleared = true
            changed.removeAll()
        }
        storage.removeAll()
        accounts.removeAll()
    }

    /// The identifiers of an account's records, oldest first.
    func ids(of account: String) -> IDs { accounts[account]?.all ?? IDs() }

    /// The identifiers of an account's records of a product, oldest first.
    func ids(of account: String, productID: String) -> IDs { accounts[account]?.byProduct[productID] ?? IDs() }

    /// The products an account has records of, in no particular order.
    func productIDs(of account: String) -> Dictionary<String, IDs>.Keys? { accounts[account]?.byProduct.keys }

    /// An account's records, oldest first.
    func records(of account: String) -> [TransactionRecord] { ids(of: account).compactMap { storage[$0] } }

    /// An account's records of a product, oldest first.
    func records(of account: String, productID: String) -> [TransactionRecord] {
        ids(of: account, productID: productID).compactMap { storage[$0] }
    }

    /// The oldest of an account's records of a product that satisfies a predicate.
    func first(of account: String, productID: String, where predicate: (TransactionRecord) -> Bool)
        -> TransactionRecord?
    {
        for id in ids(of: account, productID: productID) {
            if let record = storage[id], predicate(record) { return record }
        }
        return nil
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
