public import Foundation

/// A read-write view of the database inside ``LedgerDatabase/write(_:)`` or ``LedgerGroupCommitter/write(_:whenDurable:)``.
///
/// Everything done through one transaction is applied together or not at all. Reads see the transaction's own
/// writes. The value is non-copyable and only borrowed by the body, so it cannot outlive the transaction; pass it on
/// as `borrowing LedgerWriteTransaction`.
public struct LedgerWriteTransaction: ~Copyable {
    let store: LedgerStore

    // MARK: Writing records

    /// Stores `value` under `key` in `collection`, replacing any value already there (which keeps its place in
    /// insertion order). Contiguous byte sequences (`[UInt8]`, `Data`, slices) are bound without copying.
    /// - Parameters:
    ///   - value: The bytes to store (may be empty).
    ///   - key: The key, unique within the collection; compared by its UTF-8 bytes.
    ///   - collection: The collection's name; collections need no declaration.
    /// - Throws: ``LedgerError`` if SQLite fails.
    @inlinable
    public func put(_ value: some Sequence<UInt8>, forKey key: String, in collection: String) throws(LedgerError) {
        // Inlinable so that the caller's sequence type is specialized: no generic dispatch per write.
        let inPlace = value.withContiguousStorageIfAvailable { buffer in
            Result { () throws(LedgerError) in try putBytes(UnsafeRawBufferPointer(buffer), forKey: key, in: collection)
            }
        }
        if let inPlace { return try inPlace.get() }
        try putBytes(Array(value), forKey: key, in: collection)
    }

    /// Stores `bytes` under `key` in `collection` (the non-generic part of ``put(_:forKey:in:)``).
    @usableFromInline
    func putBytes(_ bytes: UnsafeRawBufferPointer, forKey key: String, in collection: String) throws(LedgerError) {
        try store.put(bytes, key: key, collection: collection)
    }

    /// Stores a copy of `bytes` (for sequences that are not contiguous).
    @usableFromInline
    func putBytes(_ bytes: [UInt8], forKey key: String, in collection: String) throws(LedgerError) {
        try withBytes(bytes) { (raw) throws(LedgerError) in try store.put(raw, key: key, collection: collection) }
    }

    /// Removes the value under `key` in `collection`.
    /// - Returns: Whether there was a value to remove.
    /// - Throws: ``LedgerError`` if SQLite fails.
    @discardableResult
    public func remove(forKey key: String, in collection: String) throws(LedgerError) -> Bool {
        try store.remove(key: key, collection: collection)
    }

    /// Removes every record of `collection`.
    /// - Returns: The number of records removed.
    /// - Throws: ``LedgerError`` if SQLite fails.
    @discardableResult
    public func removeAll(in collection: String) throws(LedgerError) -> Int {
        try store.removeAll(collection: collection)
    }

    // MARK: Writing meta

    /// Stores an integer in the meta table under `key`, replacing any value there.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func setMeta(_ value: Int64, forKey key: String) throws(LedgerError) {
        try store.setMeta(key: key) { $0.bind(value, at: 2) }
    }

    /// Stores a double in the meta table under `key`, replacing any value there.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func setMeta(_ value: Double, forKey key: String) throws(LedgerError) {
        try store.setMeta(key: key) { $0.bind(value, at: 2) }
    }

    /// Stores a string in the meta table under `key`, replacing any value there.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func setMeta(_ value: String, forKey key: String) throws(LedgerError) {
        try withUTF8(value) { (text) -> Result<Void, LedgerError> in
            Result { () throws(LedgerError) in try store.setMeta(key: key) { $0.bindText(text, at: 2) } }
        }.get()
    }

    /// Stores bytes in the meta table under `key`, replacing any value there.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func setMeta(_ value: some Sequence<UInt8>, forKey key: String) throws(LedgerError) {
        try withBytes(value) { (bytes) throws(LedgerError) in
            try store.setMeta(key: key) { $0.bindBlob(bytes, at: 2) }
        }
    }

    /// Removes the meta value under `key`.
    /// - Returns: Whether there was a value to remove.
    /// - Throws: ``LedgerError`` if SQLite fails.
    @discardableResult
    public func removeMeta(forKey key: String) throws(LedgerError) -> Bool {
        try store.removeMeta(key: key)
    }

    /// Adds `delta` to the integer meta value under `key` (a missing value counts as 0) and returns the new value.
    /// Use it for identifier counters: an identifier handed out by a committed write is never handed out again.
    /// - Throws: ``LedgerError/Code/typeMismatch`` if the value there is not an integer.
    @discardableResult
    public func incrementMeta(forKey key: String, by delta: Int64 = 1) throws(LedgerError) -> Int64 {
        try store.incrementMeta(key: key, by: delta)
    }

    // MARK: Writing the log

    /// Appends `payload` to the log `name`.
    /// - Returns: The entry's sequence number, greater than every sequence ever handed out in this database.
    /// - Throws: ``LedgerError`` if SQLite fails.
    @discardableResult
    @inlinable
    public func appendLog(_ payload: some Sequence<UInt8>, to name: String) throws(LedgerError) -> Int64 {
        let inPlace = payload.withContiguousStorageIfAvailable { buffer in
            Result { () throws(LedgerError) in try appendLogBytes(UnsafeRawBufferPointer(buffer), to: name) }
        }
        if let inPlace { return try inPlace.get() }
        return try appendLogBytes(Array(payload), to: name)
    }

    /// Appends `bytes` to the log `name` (the non-generic part of ``appendLog(_:to:)``).
    @usableFromInline
    func appendLogBytes(_ bytes: UnsafeRawBufferPointer, to name: String) throws(LedgerError) -> Int64 {
        try store.appendLog(bytes, name: name)
    }

    /// Appends a copy of `bytes` (for sequences that are not contiguous).
    @usableFromInline
    func appendLogBytes(_ bytes: [UInt8], to name: String) throws(LedgerError) -> Int64 {
        try withBytes(bytes) { (raw) throws(LedgerError) in try store.appendLog(raw, name: name) }
    }

    /// Removes the entries of the log `name` whose sequence is at most `sequence` (compaction). Their sequence
    /// numbers are not reused.
    /// - Returns: The number of entries removed.
    /// - Throws: ``LedgerError`` if SQLite fails.
    @discardableResult
    public func removeLogEntries(in name: String, through sequence: Int64) throws(LedgerError) -> Int {
        try store.removeLogEntries(name: name, through: sequence)
    }

    // MARK: Deliveries

    /// Records that content was delivered for `transactionID` at `date`, in this transaction.
    ///
    /// Grant the content in the same write, or check ``isDelivered(transactionID:)`` first, so that a crash between
    /// delivering and finishing never grants twice. A later mark for the same transaction keeps the first date.
    /// - Parameters:
    ///   - transactionID: The store transaction's identifier.
    ///   - date: When the content was delivered (from the caller's clock).
    /// - Returns: `true` if this call recorded the delivery, `false` if it was already recorded.
    /// - Throws: ``LedgerError`` if SQLite fails.
    @discardableResult
    public func markDelivered(transactionID: String, at date: Date) throws(LedgerError) -> Bool {
        try store.markDelivered(transactionID: transactionID, at: date.timeIntervalSinceReferenceDate)
    }

    // MARK: Reading (sees this transaction's writes)

    /// The bytes stored under `key` in `collection`, or `nil`. See ``LedgerReadTransaction/value(forKey:in:)``.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func value(forKey key: String, in collection: String) throws(LedgerError) -> [UInt8]? {
        try store.value(key: key, collection: collection)
    }

    /// Whether `collection` holds a value under `key`.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func containsValue(forKey key: String, in collection: String) throws(LedgerError) -> Bool {
        try store.contains(key: key, collection: collection)
    }

    /// The number of records in `collection`.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func count(in collection: String) throws(LedgerError) -> Int {
        try store.count(collection: collection)
    }

    /// Every record of `collection`, in `order`. See ``LedgerReadTransaction/all(in:order:)``.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func all(in collection: String, order: LedgerOrder = .key) throws(LedgerError) -> [LedgerRecord] {
        try store.all(collection: collection, order: order)
    }

    /// Calls `body` with each record of `collection` in `order`. `body` must not modify `collection`.
    /// - Throws: ``LedgerError`` if SQLite fails, or whatever `body` throws.
    public func forEach(
        in collection: String, order: LedgerOrder = .key, _ body: (_ key: String, _ value: [UInt8]) throws -> Void
    ) throws {
        try store.forEach(collection: collection, order: order, body)
    }

    /// The names of all collections that hold at least one record.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func collections() throws(LedgerError) -> [String] {
        try store.collections()
    }

    /// The integer meta value under `key`, or `nil`.
    /// - Throws: ``LedgerError/Code/typeMismatch`` if the value there is not an integer.
    public func metaInteger(forKey key: String) throws(LedgerError) -> Int64? {
        try store.meta(key: key, type: LedgerStore.integerType) { $0.int64(0) }
    }

    /// The double meta value under `key`, or `nil`.
    /// - Throws: ``LedgerError/Code/typeMismatch`` if the value there is not a double.
    public func metaDouble(forKey key: String) throws(LedgerError) -> Double? {
        try store.meta(key: key, type: LedgerStore.doubleType) { $0.double(0) }
    }

    /// The string meta value under `key`, or `nil`.
    /// - Throws: ``LedgerError/Code/typeMismatch`` if the value there is not a string.
    public func metaString(forKey key: String) throws(LedgerError) -> String? {
        try store.meta(key: key, type: LedgerStore.textType) { $0.text(0) }
    }

    /// The bytes meta value under `key`, or `nil`.
    /// - Throws: ``LedgerError/Code/typeMismatch`` if the value there is not bytes.
    public func metaBytes(forKey key: String) throws(LedgerError) -> [UInt8]? {
        try store.meta(key: key, type: LedgerStore.blobType) { $0.blob(0) }
    }

    /// The entries of the log `name` after `sequence`, oldest first, at most `limit`.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func logEntries(in name: String, after sequence: Int64 = 0, limit: Int = .max) throws(LedgerError)
        -> [LedgerLogEntry]
    {
        try store.logEntries(name: name, after: sequence, limit: limit)
    }

    /// The sequence of the newest entry in the log `name`, or `nil` if it is empty.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func lastLogSequence(in name: String) throws(LedgerError) -> Int64? {
        try store.lastLogSequence(name: name)
    }

    /// The number of entries in the log `name`.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func logCount(in name: String) throws(LedgerError) -> Int {
        try store.logCount(name: name)
    }

    /// Whether content was recorded as delivered for `transactionID`.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func isDelivered(transactionID: String) throws(LedgerError) -> Bool {
        try store.deliveryTime(transactionID: transactionID) != nil
    }

    /// When content was recorded as delivered for `transactionID`, or `nil`.
    /// - Throws: ``LedgerError`` if SQLite fails.
    public func deliveryDate(transactionID: String) throws(LedgerError) -> Date? {
        try store.deliveryTime(transactionID: transactionID).map { Date(timeIntervalSinceReferenceDate: $0) }
    }
}
