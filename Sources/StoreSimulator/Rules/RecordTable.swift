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
///
/// **Accounts read on demand.** A durable store opened from its tables reads no record on opening: its table has a
/// ``source`` (the state file) and holds only the accounts loaded so far. A write loads the account it writes (and,
/// for an identifier held by no loaded account, the account the file files it under) before it is made, as if its
/// records had always been there, without noting them as changed. A read of an account not loaded (its records, its
/// products) or of an identifier no loaded account holds reads the file without loading (one row for an identifier);
/// ``load(_:)`` loads an account for the reads to come, ``loadAll()`` every account (whole-store questions). A table
/// without a source (an in-memory store, a new file, a file read whole) holds every record and never asks.
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
        /// The lowest identifier added to or removed from the account since the last ``takeIndexChanges()``.
        var lowestChange: UInt64?

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
    /// Each account's name, by slot.
    private var names: [String] = []
    /// The slots of the accounts whose identifiers changed since the last ``takeIndexChanges()``.
    private var indexChanged: [Int] = []
    /// Where the records of accounts not loaded are read (`nil`: every record is here).
    private(set) var source: RecordSource?
    /// The accounts loaded from ``source``.
    private var loaded = Set<String>()
    /// Whether every record is here: no source, or every account loaded.
    private(set) var isComplete = true

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
        get {
            if let position = positions[id] { return rows[position] }
            return isComplete ? nil : unloadedRecord(id)
        }
        set {
            if !isComplete { loadForWrite(id, account: newValue?.account) }
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
            if !isComplete, positions[id] == nil { loadForWrite(id, account: nil) }
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
        if !isComplete { loadForWrite(id, account: record.account) }
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
        names.removeAll()
        indexChanged.removeAll()
        lastAccount = nil
        descendants.removeAll()
        // The file's rows go too (the compaction's `cleared`): nothing is left to read.
        loaded.removeAll()
        isComplete = true
    }

    /// The identifiers of an account's records, oldest first.
    func ids(of account: String) -> IDs {
        if let slot = accountSlots[account] { return accounts[slot].all }
        return unloadedAccount(account)?.all ?? IDs()
    }

    /// The identifiers of an account's records of a product, oldest first.
    func ids(of account: String, productID: String) -> IDs {
        if let slot = accountSlots[account] { return accounts[slot].byProduct[productID] ?? IDs() }
        return unloadedAccount(account)?.byProduct[productID] ?? IDs()
    }

    /// The accounts that have records, in no particular order (with a source, those its index lists too).
    var accountNames: [String] {
        guard !isComplete, let source else { return Array(accountSlots.keys) }
        return Array(accountSlots.keys) + source.accounts().filter { accountSlots[$0] == nil }
    }

    /// The products an account has records of, in no particular order.
    func productIDs(of account: String) -> Dictionary<String, IDs>.Keys? {
        if let slot = accountSlots[account] { return accounts[slot].byProduct.keys }
        return unloadedAccount(account)?.byProduct.keys
    }

    /// The identifiers of the records whose `originalID` names the record `id` (a subscription's renewals, for
    /// example), oldest first; the record itself is not among them.
    func descendants(of id: UInt64) -> IDs { descendants[id] ?? IDs() }

    /// An account's records, oldest first.
    func records(of account: String) -> [TransactionRecord] {
        guard !isComplete, accountSlots[account] == nil, let records = unloadedRecords(of: account) else {
            return ids(of: account).compactMap { self[$0] }
        }
        return records
    }

    /// An account's records of a product, oldest first.
    func records(of account: String, productID: String) -> [TransactionRecord] {
        guard !isComplete, accountSlots[account] == nil, let records = unloadedRecords(of: account) else {
            return ids(of: account, productID: productID).compactMap { self[$0] }
        }
        return records.filter { $0.productID == productID }
    }

    /// The oldest of an account's records of a product that satisfies a predicate.
    func first(of account: String, productID: String, where predicate: (TransactionRecord) -> Bool)
        -> TransactionRecord?
    {
        if !isComplete, accountSlots[account] == nil, let records = unloadedRecords(of: account) {
            return records.first { $0.productID == productID && predicate($0) }
        }
        for id in ids(of: account, productID: productID) {
            if let record = self[id], predicate(record) { return record }
        }
        return nil
    }

    // MARK: Accounts read on demand

    /// Reads the records of accounts not loaded from `source` from now on: the table holds only what is loaded.
    mutating func readOnDemand(from source: RecordSource) {
        self.source = source
        isComplete = false
    }

    /// Whether an account's records are here.
    func isLoaded(_ account: String) -> Bool { isComplete || loaded.contains(account) }

    /// Loads an account's records from the source, unless they are here: each record the table does not hold is put
    /// in it as if it had always been there (noted neither as changed nor as changing the account's identifiers).
    mutating func load(_ account: String) {
        guard !isComplete, let source, loaded.insert(account).inserted else { return }
        let records = source.records(of: account)
        let tracking = tracksChanges
        tracksChanges = false
        defer { tracksChanges = tracking }
        reserveCapacity(rows.count + records.count)
        for record in records where positions[record.id] == nil {
            positions[record.id] = rows.count
            index(record.id, account: record.account, productID: record.productID)
            link(record.id, to: record.originalID)
            rows.append(record)
        }
    }

    /// Loads the account of the record `id`, wherever it is filed (nothing if no account holds it).
    mutating func loadAccount(holding id: UInt64) {
        guard !isComplete, positions[id] == nil, let source, source.mayHold(id), let record = source.record(id)
        else { return }
        load(record.account)
    }

    /// Loads every account's records (for whole-store questions: every transaction, a reset); the table is then
    /// complete and never reads its source again.
    mutating func loadAll() {
        guard !isComplete, let source else { return }
        for account in source.accounts() { load(account) }
        isComplete = true
    }

    /// Before a write of the record `id` (of `account`, for a record written): loads the account the file files
    /// `id` under, if no loaded account holds it, and `account`.
    @inline(never)
    private mutating func loadForWrite(_ id: UInt64, account: String?) {
        if positions[id] == nil, let source, source.mayHold(id), let filed = source.record(id),
            !loaded.contains(filed.account)
        {
            load(filed.account)
        }
        if let account, !loaded.contains(account) { load(account) }
    }

    /// The record `id` as the file holds it, if no loaded account holds it.
    @inline(never)
    private func unloadedRecord(_ id: UInt64) -> TransactionRecord? {
        guard let source, source.mayHold(id), let record = source.record(id), !loaded.contains(record.account) else {
            return nil
        }
        return record
    }

    /// The records of an account not loaded, as the file holds them, oldest first; `nil` for an account loaded.
    @inline(never)
    private func unloadedRecords(of account: String) -> [TransactionRecord]? {
        guard !isComplete, !loaded.contains(account), let source else { return nil }
        return source.records(of: account)
    }

    /// The indexes of an account not loaded, as the file's records give them; `nil` for an account loaded.
    private func unloadedAccount(_ account: String) -> Account? {
        guard let records = unloadedRecords(of: account) else { return nil }
        var entry = Account()
        for record in records { entry.add(record.id, productID: record.productID) }
        return entry
    }

    /// The accounts whose identifiers changed since the last call, each with its identifiers now and the lowest
    /// identifier added or removed; forgets them.
    mutating func takeIndexChanges() -> [(account: String, ids: IDs, from: UInt64)] {
        defer { indexChanged.removeAll() }
        return indexChanged.map { slot in
            defer { accounts[slot].lowestChange = nil }
            return (names[slot], accounts[slot].all, accounts[slot].lowestChange ?? 0)
        }
    }

    /// Every record, in no particular order: those held, and those of accounts not loaded as the file holds them (read
    /// without loading them).
    var everyRecord: [TransactionRecord] {
        guard !isComplete, let source else { return Array(values) }
        return Array(values) + source.accounts().filter { !loaded.contains($0) }.flatMap { source.records(of: $0) }
    }

    /// Every account held, with its identifiers (for an index written whole).
    var allAccounts: [(account: String, ids: IDs)] {
        accounts.indices.map { (names[$0], accounts[$0].all) }
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
            if tracksChanges { noteIndexChange(slot, id) }
        } else {
            var entry = Account()
            entry.add(id, productID: productID)
            accountSlots[account] = accounts.count
            lastAccount = (account, accounts.count)
            accounts.append(entry)
            names.append(account)
            if tracksChanges { noteIndexChange(accounts.count - 1, id) }
        }
    }

    /// Takes a record out of its account's indexes.
    private mutating func unindex(_ id: UInt64, account: String, productID: String) {
        if let slot = slot(of: account) {
            accounts[slot].remove(id, productID: productID)
            if tracksChanges { noteIndexChange(slot, id) }
        }
    }

    /// Notes that the identifier `id` joined or left the account at `slot`.
    private mutating func noteIndexChange(_ slot: Int, _ id: UInt64) {
        if let lowest = accounts[slot].lowestChange {
            if id < lowest { accounts[slot].lowestChange = id }
        } else {
            accounts[slot].lowestChange = id
            indexChanged.append(slot)
        }
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
