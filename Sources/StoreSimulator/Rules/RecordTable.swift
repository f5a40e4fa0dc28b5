import StoreModels

/// A store's purchase history by transaction identifier: a dictionary that can also say which records changed, with
/// indexes kept up to date as records are stored and removed: each account's records, and each account's records of
/// each product, in identifier order (oldest first), and the records that descend from each record (whose
/// `originalID` names it). Questions about one account (its history, its receipt, a restore, whether it owns a product
/// or has subscribed in a group) then cost what that account holds, and a transaction's chain what the chain holds,
/// not what the whole store holds.
///
/// Reads and writes look like a dictionary's. A durable store turns ``tracksChanges`` on, and every write by key
/// (setting, changing in place, removing) then notes the identifier, so that the state file's table of records is
/// brought up to date row by row (``takeChanges()``) instead of being rewritten whole. An in-memory store leaves it off
/// and pays one branch per write.
struct RecordTable: Sendable {
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
            // Changed in place through its index: `byProduct[productID, default:]` goes through a coroutine that
            // allocates its frame, at every purchase.
            if let index = byProduct.index(forKey: productID) {
                byProduct.values[index].insert(id)
            } else {
                var ids = IDs()
                ids.insert(id)
                byProduct[productID] = ids
            }
        }

        mutating func remove(_ id: UInt64, productID: String) {
            all.remove(id)
            if let index = byProduct.index(forKey: productID) { byProduct.values[index].remove(id) }
        }
    }

    /// The records in one contiguous array, in no particular order (never `nil` between calls: the array is an
    /// array of optionals so that a write by key can change a record in place), and the position of each by
    /// identifier. Half the memory of a dictionary of the 216-byte records, written in order when a state file is
    /// read, and scanned without hashing.
    private var rows: [TransactionRecord?] = []
    private var positions: [UInt64: Int] = [:]
    /// Each account's indexes, by slot, and each account's slot. Slots never move (accounts are only added, or all
    /// removed), so the slot of the account last written is remembered: writes come mostly for the same account, and
    /// comparing its identifier costs less than hashing it.
    private var accounts: [Account] = []
    private var accountSlots: [String: Int] = [:]
    private var lastAccount: (name: String, slot: Int)?
    /// The identifiers of the records whose `originalID` names another record, by that `originalID`.
    private var descendants: [UInt64: IDs] = [:]
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
                if let position = positions[id] {
                    // The fields needed, not a copy of the whole record.
                    unindex(id, account: rows[position]!.account, productID: rows[position]!.productID)
                    unlink(id, from: rows[position]!.originalID)
                    removeRow(at: position, id: id)
                }
                return
            }
            // One hash for a new record (every one, when a state file is read).
            if let position = positions.updateValue(rows.count, forKey: id) {
                positions[id] = position
                let old = rows[position]!
                rows[position] = newValue
                reindex(id, from: old, to: newValue)
            } else {
                // Indexed first, so that appending is the record's last use and moves it instead of copying it.
                index(id, account: newValue.account, productID: newValue.productID)
                link(id, to: newValue.originalID)
                rows.append(newValue)
            }
        }
        // The coroutine's frame is allocated at every call: it holds no record, only the fields the indexes need,
        // so that it stays a small allocation (with copies of whole records it took 1,560 bytes, which glibc serves
        // as a large request that first consolidates its fast bins, walking freed chunks all over the heap).
        _modify {
            if tracksChanges { changed.insert(id) }
            if let position = positions[id] {
                let filed = filing(at: position)
                defer { refile(id, at: position, from: filed) }
                yield &rows[position]
            } else {
                var added: TransactionRecord? = nil
                defer { add(id, &added) }
                yield &added
            }
        }
    }

    /// What a record is filed under in the indexes: its account, its product and its original.
    private struct Filing {
        var account: String
        var productID: String
        var originalID: UInt64
    }

    /// What the record at a position is filed under, read in place.
    @inline(never)
    private func filing(at position: Int) -> Filing {
        Filing(
            account: rows[position]!.account, productID: rows[position]!.productID,
            originalID: rows[position]!.originalID)
    }

    /// After a change in place of the record at a position, filed under `filed` before: moves it in the indexes if
    /// the change moved its account, product or original, or removes its row if the change removed it.
    @inline(never)
    private mutating func refile(_ id: UInt64, at position: Int, from filed: Filing) {
        guard rows[position] != nil else {
            unindex(id, account: filed.account, productID: filed.productID)
            unlink(id, from: filed.originalID)
            removeRow(at: position, id: id)
            return
        }
        if rows[position]!.account != filed.account || rows[position]!.productID != filed.productID {
            unindex(id, account: filed.account, productID: filed.productID)
            index(id, account: rows[position]!.account, productID: rows[position]!.productID)
        }
        if rows[position]!.originalID != filed.originalID {
            unlink(id, from: filed.originalID)
            link(id, to: rows[position]!.originalID)
        }
    }

    /// Stores a record a change in place of a missing identifier made, if it made one.
    @inline(never)
    private mutating func add(_ id: UInt64, _ added: inout TransactionRecord?) {
        guard let record = added.take() else { return }
        positions[id] = rows.count
        index(id, account: record.account, productID: record.productID)
        link(id, to: record.originalID)
        rows.append(record)
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
        // The fields needed, not a copy of the whole record.
        let id = rows[position]!.id
        if tracksChanges { changed.insert(id) }
        unindex(id, account: rows[position]!.account, productID: rows[position]!.productID)
        unlink(id, from: rows[position]!.originalID)
        removeRow(at: position, id: id)
    }

    /// Removes every record.
    mutating func removeAll() {
        if tracksChanges {
            cleared = true
            changed.removeAll()
        }
        rows.removeAll()
        positions.removeAll()
        accounts.removeAll()
        accountSlots.removeAll()
        lastAccount = nil
        descendants.removeAll()
    }

    /// The identifiers of an account's records, oldest first.
    func ids(of account: String) -> IDs { accountSlots[account].map { accounts[$0].all } ?? IDs() }

    /// The identifiers of an account's records of a product, oldest first.
    func ids(of account: String, productID: String) -> IDs {
        accountSlots[account].flatMap { accounts[$0].byProduct[productID] } ?? IDs()
    }

    /// The accounts that have records, in no particular order.
    var accountNames: Dictionary<String, Int>.Keys { accountSlots.keys }

    /// The products an account has records of, in no particular order.
    func productIDs(of account: String) -> Dictionary<String, IDs>.Keys? {
        accountSlots[account].map { accounts[$0].byProduct.keys }
    }

    /// The identifiers of the records whose `originalID` names the record `id` (a subscription's renewals, for
    /// example), oldest first; the record itself is not among them.
    func descendants(of id: UInt64) -> IDs { descendants[id] ?? IDs() }

    /// An account's records, oldest first.
    func records(of account: String) -> [TransactionRecord] { ids(of: account).compactMap { self[$0] } }

    /// An account's records of a product, oldest first.
    func records(of account: String, productID: String) -> [TransactionRecord] {
        ids(of: account, productID: productID).compactMap { self[$0] }
    }

    /// The oldest of an account's records of a product that satisfies a predicate.
    func first(of account: String, productID: String, where predicate: (TransactionRecord) -> Bool)
        -> TransactionRecord?
    {
        for id in ids(of: account, productID: productID) {
            if let record = self[id], predicate(record) { return record }
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

    /// Moves a record in the indexes when a write changed its account, product or original.
    private mutating func reindex(_ id: UInt64, from old: TransactionRecord, to new: TransactionRecord) {
        if old.originalID != new.originalID {
            unlink(id, from: old.originalID)
            link(id, to: new.originalID)
        }
        guard old.account != new.account || old.productID != new.productID else { return }
        unindex(id, account: old.account, productID: old.productID)
        index(id, account: new.account, productID: new.productID)
    }

    /// Files a record under its account and product.
    private mutating func index(_ id: UInt64, account: String, productID: String) {
        if let slot = slot(of: account) {
            accounts[slot].add(id, productID: productID)
        } else {
            var entry = Account()
            entry.add(id, productID: productID)
            accountSlots[account] = accounts.count
            lastAccount = (account, accounts.count)
            accounts.append(entry)
        }
    }

    /// Takes a record out of its account's indexes.
    private mutating func unindex(_ id: UInt64, account: String, productID: String) {
        if let slot = slot(of: account) { accounts[slot].remove(id, productID: productID) }
    }

    /// The slot of an account's indexes in ``accounts``, remembering it for the next write.
    private mutating func slot(of account: String) -> Int? {
        if let last = lastAccount, last.name == account { return last.slot }
        guard let slot = accountSlots[account] else { return nil }
        lastAccount = (account, slot)
        return slot
    }

    /// Files the record `id` among the descendants of `originalID`, unless it is its own original.
    private mutating func link(_ id: UInt64, to originalID: UInt64) {
        guard originalID != id else { return }
        descendants[originalID, default: IDs()].insert(id)
    }

    /// Takes the record `id` out of the descendants of `originalID`, forgetting an emptied list.
    private mutating func unlink(_ id: UInt64, from originalID: UInt64) {
        guard originalID != id, let index = descendants.index(forKey: originalID) else { return }
        descendants.values[index].remove(id)
        if descendants.values[index].isEmpty { descendants.remove(at: index) }
    }

    /// Removes the row at a position, which holds (or held, before a change in place emptied it) the record `id`,
    /// moving the last row into its place. The account indexes are the caller's.
    private mutating func removeRow(at position: Int, id: UInt64) {
        let last = rows.count - 1
        positions[id] = nil
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
