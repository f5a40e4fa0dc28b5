import StoreModels

/// A store's transaction records by identifier, with two indexes kept up to date as records are stored and removed:
/// each account's records, and each account's records of each product, in identifier order (oldest first).
///
/// Questions about one account (its history, its receipt, a restore, whether it owns a product or has subscribed in a
/// group) then cost what that account holds, not what the whole store holds.
struct TransactionHistory: Sendable {
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

    private var byID: [UInt64: TransactionRecord] = [:]
    private var accounts: [String: Account] = [:]

    /// An empty history.
    init() {}

    /// A history of these records; of two with the same identifier, the last is kept.
    init(_ records: some Sequence<TransactionRecord>) {
        for record in records { self[record.id] = record }
    }

    /// The record with an identifier. Storing one indexes it under its account and product; storing `nil` removes it.
    subscript(id: UInt64) -> TransactionRecord? {
        get { byID[id] }
        set {
            let old: TransactionRecord?
            if let newValue { old = byID.updateValue(newValue, forKey: id) } else { old = byID.removeValue(forKey: id) }
            if let old, old.account != newValue?.account || old.productID != newValue?.productID {
                accounts[old.account]?.remove(id, productID: old.productID)
            } else if old != nil {
                return
            }
            guard let newValue else { return }
            accounts[newValue.account, default: Account()].add(id, productID: newValue.productID)
        }
    }

    /// Whether the record with an identifier exists and satisfies a predicate, which sees it in place (a record is
    /// large; reading it through the subscript copies it).
    mutating func record(_ id: UInt64, satisfies predicate: (inout TransactionRecord) -> Bool) -> Bool {
        guard let position = byID.index(forKey: id) else { return false }
        return predicate(&byID.values[position])
    }

    /// Every record, in no particular order.
    var values: Dictionary<UInt64, TransactionRecord>.Values { byID.values }

    /// How many records there are.
    var count: Int { byID.count }

    /// Removes every record.
    mutating func removeAll() {
        byID.removeAll()
        accounts.removeAll()
    }

    /// The identifiers of an account's records, oldest first.
    func ids(of account: String) -> IDs { accounts[account]?.all ?? IDs() }

    /// The identifiers of an account's records of a product, oldest first.
    func ids(of account: String, productID: String) -> IDs { accounts[account]?.byProduct[productID] ?? IDs() }

    /// The products an account has records of, in no particular order.
    func productIDs(of account: String) -> Dictionary<String, IDs>.Keys? { accounts[account]?.byProduct.keys }

    /// An account's records, oldest first.
    func records(of account: String) -> [TransactionRecord] { ids(of: account).compactMap { byID[$0] } }

    /// An account's records of a product, oldest first.
    func records(of account: String, productID: String) -> [TransactionRecord] {
        ids(of: account, productID: productID).compactMap { byID[$0] }
    }

    /// The oldest of an account's records of a product that satisfies a predicate.
    func first(of account: String, productID: String, where predicate: (TransactionRecord) -> Bool)
        -> TransactionRecord?
    {
        for id in ids(of: account, productID: productID) {
            if let record = byID[id], predicate(record) { return record }
        }
        return nil
    }
}
